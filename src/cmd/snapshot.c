/* snapshot: `oomlab snapshot FILE.pickle[.gz] [FILE2]` — a PyTorch memory
 * snapshot (torch.cuda.memory._dump_snapshot) read natively: per device
 * what is reserved, allocated, active; the OOM against the largest free
 * block; the live allocations by Python stack; segments by size; the
 * trace's peak and leak candidates. Two files: what grew, by stack. The
 * reading is lib/pickle + lib/snapshot; this file opens and renders. */
#include "cmd/cmd.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/snapshot.h"
#include "lib/units.h"
#include "sys/snapfile.h"
#include "render/json.h"
#include "render/table.h"

#define SNAP_TOP_MAX 100

static const char usage_head[] =
    "usage: oomlab snapshot [options] FILE.pickle[.gz] [FILE2]\n"
    "\n"
    "Read a PyTorch memory snapshot (torch.cuda.memory._dump_snapshot) without\n"
    "Python: per device the reserved, allocated and active bytes by pool; the OOM's\n"
    "request against the device's free memory and the largest free cached block;\n"
    "the live allocations grouped by Python stack; segments by size; the trace's\n"
    "peak and allocations alive through it (leak candidates). With FILE2: what\n"
    "grew from FILE to FILE2, by stack. Nothing in the file is executed.\n"
    "\n";
static const char usage_tail[] =
    "\n"
    "Exit: 0 read, 1 the trace records an OOM, 2 usage or a bad file, 3 cannot\n"
    "write.\n";

struct snap_cli {
    const char *files[2];
    int n_files;
    long top;
    int64_t memory_limit;
    bool json;
};

static int load(const struct snap_cli *cli, const char *path, struct snapshot *s,
                struct oomlab_err *err)
{
    return snapfile_load(path, (size_t)cli->memory_limit, s, err);
}

static int parse_memory_limit(const struct opt_spec *o, const char *val, void *dst, size_t size,
                              struct oomlab_err *err)
{
    int64_t v;
    if (units_parse_size_arg(val, &v) < 0 || v < (16 << 20))
        return oomlab_err_set(err, "--memory-limit wants a size of 16MiB or more, got '%s'", val);
    *(int64_t *)dst = v;
    return 0;
}

#define AT(f) OPT_FIELD(struct snap_cli, f)
static const struct opt_spec specs[] = {
    {.name = "top", .metavar = "N", .parse = opt_int, AT(top), .min = 1, .max = SNAP_TOP_MAX,
     .help = "stacks to list (10)"},
    {.name = "memory-limit", .metavar = "SIZE", .parse = parse_memory_limit, AT(memory_limit),
     .help = "most memory the reader may hold (512MiB)"},
    {.name = "json", .letter = 'j', .help = "print schema oomlab.snapshot.v1 (two files:\noomlab.snapshot-diff.v1)",
     AT(json)},
    {0},
};
static const struct opt_table opt_table = {.command = "snapshot", .usage = usage_head, .epilogue = usage_tail,
                                           .spec = specs};
CMD_OPTIONS(cmd_snapshot_options, opt_table)

/* CMD_CONTINUE, or the exit code. */
static int parse_args(struct snap_cli *cli, int argc, char **argv)
{
    int first_arg, rc = cmd_options(&opt_table, argc, argv, cli, &first_arg);
    if (rc != CMD_CONTINUE) return rc;
    for (int i = first_arg; i < argc; i++) {
        if (cli->n_files == 2) return cmd_usage_error("snapshot", "at most two files (before and after)");
        cli->files[cli->n_files++] = argv[i];
    }
    if (!cli->n_files) return cmd_usage_error("snapshot", "no snapshot file given");
    return CMD_CONTINUE;
}

/* ---- text ---- */

static const char *bytes(int64_t v, char *buf, size_t size)
{
    return v < 0 ? "unknown" : units_format_bytes(v, buf, size);
}

/* "train.py:88 forward < train.py:120 step (+9 library frames)": file
 * names cut to their last component, as _memory_viz prints them; wrapped
 * at 80 columns, continued under the first frame (col: where it starts). */
static void print_stack(const char *text, size_t library, int col)
{
    int start = col;
    char piece[400];
    if (!*text) {
        printf("(no Python stack recorded)");
        return;
    }
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *colon = memchr(line, ':', len), *slash = line;
        for (const char *c = line; c < (colon ? colon : line + len); c++)
            if (*c == '/') slash = c + 1;
        int n = snprintf(piece, sizeof piece, "%s%.*s", line == text ? "" : " < ",
                         (int)(len - (size_t)(slash - line)), slash);
        const char *out = piece;
        if (col > start && col + n > 79) {
            printf("\n%*s", start, "");
            col = start;
            out += *out == ' '; /* "< next" under the first frame */
        }
        col += printf("%s", out);
        if (!end) break;
        line = end + 1;
    }
    if (library) {
        int n = snprintf(piece, sizeof piece, " (+%zu library frames)", library);
        if (col + n > 79) printf("\n%*s", start, "");
        printf("%s", col + n > 79 ? piece + 1 : piece);
    }
}

/* Tables sit under their device, two spaces in. */
static void print_table(const struct table *t)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mf = open_memstream(&text, &len);
    if (!mf) return;
    table_print(t, mf);
    fclose(mf);
    for (const char *l = text; l && *l;) {
        const char *e = strchr(l, '\n');
        printf("  %.*s\n", (int)(e ? e - l : (long)strlen(l)), l);
        l = e ? e + 1 : l + strlen(l);
    }
    free(text);
}

static void print_pools(const struct snap_device *d)
{
    const char *heads[] = {"pool", "reserved", "allocated", "active", "segments"};
    struct table t;
    if (table_init(&t, 5, heads) < 0) return;
    for (int c = 1; c < 5; c++) table_align_right(&t, c);
    struct snap_pool all = {"all", d->reserved, d->allocated, d->active, d->segments};
    for (size_t i = 0; i <= d->n_pools; i++) {
        const struct snap_pool *p = i ? &d->pools[i - 1] : &all;
        char r[32], a[32], ac[32], n[24];
        snprintf(n, sizeof n, "%ld", p->segments);
        const char *cells[] = {p->name, bytes(p->reserved, r, sizeof r),
                               bytes(p->allocated, a, sizeof a), bytes(p->active, ac, sizeof ac), n};
        table_add(&t, cells);
    }
    print_table(&t);
    table_release(&t);
}

/* The request against the cache: does one free block fit it, or is the
 * free memory there but in pieces (fragmentation)? */
static void print_oom(const struct snapshot *s, const struct snap_device *d)
{
    char req[32], dev[32], big[32], all[32];
    if (!d->has_oom) {
        if (d->has_trace) printf("  no OOM in the trace\n");
        printf("  largest free cached block: %s (%s free in the cache)\n",
               d->largest_free < 0 ? "none" : bytes(d->largest_free, big, sizeof big),
               bytes(d->cached_free, all, sizeof all));
        return;
    }
    printf("  OOM at trace entry %ld: %s requested, %s free on the device\n",
           d->oom_index, bytes(d->oom_requested, req, sizeof req),
           bytes(d->oom_device_free, dev, sizeof dev));
    printf("  largest free cached block: %s of %s free in the cache:\n    ",
           d->largest_free < 0 ? "none" : bytes(d->largest_free, big, sizeof big),
           bytes(d->cached_free, all, sizeof all));
    if (d->largest_free >= d->oom_requested)
        printf("one block fits the request now\n");
    else if (d->cached_free >= d->oom_requested)
        printf("fragmentation: enough in total, no single block (try\n"
               "    PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True)\n");
    else
        printf("the request is larger than all the free memory\n");
    if (d->oom_stack) {
        int col = printf("  the failing allocation: ");
        print_stack(snapshot_stack(s, d->oom_stack), snapshot_stack_library(s, d->oom_stack), col);
        printf("\n");
    }
}

static void print_top(const struct snapshot *s, int device, long top)
{
    struct snap_group g[SNAP_TOP_MAX];
    size_t n = snapshot_top(s, device, g, (size_t)top);
    if (!n) return;
    printf("  live allocations by stack (largest %zu):\n", n);
    for (size_t i = 0; i < n; i++) {
        char b[32];
        int col = printf("  %10s %6ld  ", bytes(g[i].bytes, b, sizeof b), g[i].count);
        print_stack(snapshot_stack(s, g[i].stack), snapshot_stack_library(s, g[i].stack), col);
        printf("\n");
    }
}

static void print_classes(const struct snap_device *d)
{
    const char *heads[] = {"segment size", "segments", "reserved", "free"};
    struct table t;
    if (table_init(&t, 4, heads) < 0) return;
    for (int c = 1; c < 4; c++) table_align_right(&t, c);
    for (size_t i = 0; i < SNAP_CLASSES; i++) {
        const struct snap_class *c = &d->classes[i];
        if (!c->segments) continue;
        char n[24], r[32], f[32];
        snprintf(n, sizeof n, "%ld", c->segments);
        const char *cells[] = {snapshot_class_name(i), n, bytes(c->reserved, r, sizeof r),
                               bytes(c->free_bytes, f, sizeof f)};
        table_add(&t, cells);
    }
    print_table(&t);
    table_release(&t);
}

static void print_trace(const struct snapshot *s, const struct snap_device *d)
{
    char p[32];
    if (!d->has_trace) return;
    printf("  trace: %ld entr%s", d->trace_entries, d->trace_entries == 1 ? "y" : "ies");
    if (snapshot_trace_peak(d) >= 0) {
        printf(", peak %s at entry %ld", bytes(snapshot_trace_peak(d), p, sizeof p),
               d->peak_index);
        if (d->peak_time_us >= 0) printf(" (time_us %lld)", (long long)d->peak_time_us);
    }
    printf("\n");
    if (!d->n_leaks) return;
    printf("  leak candidates (alive at the end, allocated all through the trace):\n");
    for (size_t i = 0; i < d->n_leaks; i++) {
        const struct snap_leak *l = &d->leaks[i];
        int col = printf("  %10s %6ld  ", bytes(l->bytes, p, sizeof p), l->alive);
        print_stack(snapshot_stack(s, l->stack), snapshot_stack_library(s, l->stack), col);
        printf("\n%*sentries %ld to %ld of the trace\n", col, "", l->first, l->last);
    }
}

static void render_device(const struct snapshot *s, int i, long top)
{
    const struct snap_device *d = &s->dev[i];
    printf("\ndevice %d: %ld segment%s, %ld block%s\n", i, d->segments, d->segments == 1 ? "" : "s",
           d->blocks, d->blocks == 1 ? "" : "s");
    if (d->n_pools) print_pools(d);
    print_oom(s, d);
    print_top(s, i, top);
    if (d->segments) print_classes(d);
    print_trace(s, d);
}

/* "allocator settings: k=v, k=v" wrapped at 80 columns; an empty dict
 * says so rather than ending the report on a bare heading. */
static void print_settings(const char *settings)
{
    if (!*settings) {
        printf("\nallocator settings: none in the file\n");
        return;
    }
    int col = printf("\nallocator settings:") - 1;
    for (const char *l = settings; *l;) {
        const char *e = strchr(l, '\n');
        int len = (int)(e ? e - l : (long)strlen(l));
        if (col + len + 1 > 78) col = printf("\n ") - 1;
        col += printf(" %.*s", len, l);
        l = e ? e + 1 : l + strlen(l);
    }
    printf("\n");
}

/* Live blocks without a stack and no trace on any device: the snapshot was
 * taken without the allocator's history, which is what names the code
 * holding each block and records the OOM. Say how to record it. */
static void print_no_history(const struct snapshot *s)
{
    bool unattributed = false;
    for (int i = 0; i < SNAP_MAX_DEVICES; i++)
        if (s->dev[i].has_trace) return;
    for (size_t i = 0; i < s->n_groups && !unattributed; i++)
        unattributed = s->groups[i].stack == 0 && s->groups[i].count > 0;
    if (!unattributed) return;
    printf("\nno stacks and no trace: the allocator's history was off when this was taken;\n"
           "call torch.cuda.memory._record_memory_history(max_entries=100000) (2.0:\n"
           "enabled=True) before the run, then torch.cuda.memory._dump_snapshot(PATH), to\n"
           "see which code holds each block and the OOM\n");
}

static int render_text(const struct snap_cli *cli, const struct snapshot *s)
{
    char rd[32];
    printf("snapshot %s: format %s, %s read\n", cli->files[0], s->format,
           units_format_bytes((int64_t)s->bytes_read, rd, sizeof rd));
    int shown = 0;
    for (int i = 0; i < SNAP_MAX_DEVICES; i++)
        if (s->dev[i].present || s->dev[i].has_trace) render_device(s, i, cli->top), shown++;
    if (!shown) printf("\nno segments and no trace: nothing was allocated when it was taken\n");
    else print_no_history(s);
    if (s->settings) print_settings(s->settings);
    if (s->bad_entries)
        printf("\n%ld entr%s lacked their fields and were skipped\n", s->bad_entries,
               s->bad_entries == 1 ? "y" : "ies");
    return 0;
}

/* ---- JSON ---- */

static void json_frames(struct json *j, const char *text)
{
    json_arr_begin(j);
    for (const char *l = text; *l;) {
        const char *e = strchr(l, '\n');
        json_strn(j, l, e ? (size_t)(e - l) : strlen(l));
        if (!e) break;
        l = e + 1;
    }
    json_arr_end(j);
}

static void json_stack(struct json *j, const struct snapshot *s, uint32_t stack)
{
    json_key(j, "frames");
    json_frames(j, snapshot_stack(s, stack));
    json_key(j, "library_frames");
    json_int(j, (long long)snapshot_stack_library(s, stack));
}

static void json_pools(struct json *j, const struct snap_device *d)
{
    json_key(j, "pools");
    json_arr_begin(j);
    for (size_t i = 0; i < d->n_pools; i++) {
        json_obj_begin(j);
        json_key(j, "pool");
        json_str(j, d->pools[i].name);
        json_key(j, "reserved_bytes");
        json_bytes(j, d->pools[i].reserved);
        json_key(j, "allocated_bytes");
        json_bytes(j, d->pools[i].allocated);
        json_key(j, "active_bytes");
        json_bytes(j, d->pools[i].active);
        json_key(j, "segments");
        json_int(j, d->pools[i].segments);
        json_obj_end(j);
    }
    json_arr_end(j);
}

static void json_top(struct json *j, const struct snapshot *s, int device, long top)
{
    struct snap_group g[SNAP_TOP_MAX];
    size_t n = snapshot_top(s, device, g, (size_t)top);
    json_key(j, "top");
    json_arr_begin(j);
    for (size_t i = 0; i < n; i++) {
        json_obj_begin(j);
        json_stack(j, s, g[i].stack);
        json_key(j, "bytes");
        json_bytes(j, g[i].bytes);
        json_key(j, "count");
        json_int(j, g[i].count);
        json_obj_end(j);
    }
    json_arr_end(j);
}

static void json_classes(struct json *j, const struct snap_device *d)
{
    json_key(j, "size_classes");
    json_arr_begin(j);
    for (size_t i = 0; i < SNAP_CLASSES; i++) {
        json_obj_begin(j);
        json_key(j, "class");
        json_str(j, snapshot_class_name(i));
        json_key(j, "segments");
        json_int(j, d->classes[i].segments);
        json_key(j, "reserved_bytes");
        json_bytes(j, d->classes[i].reserved);
        json_key(j, "free_bytes");
        json_bytes(j, d->classes[i].free_bytes);
        json_obj_end(j);
    }
    json_arr_end(j);
}

static void json_oom(struct json *j, const struct snapshot *s, const struct snap_device *d)
{
    json_key(j, "oom");
    if (!d->has_oom) {
        json_null(j);
        return;
    }
    json_obj_begin(j);
    json_key(j, "trace_index");
    json_int(j, d->oom_index);
    json_key(j, "requested_bytes");
    json_bytes(j, d->oom_requested);
    json_key(j, "device_free_bytes");
    json_bytes(j, d->oom_device_free);
    json_key(j, "largest_free_block_fits");
    json_bool(j, d->largest_free >= d->oom_requested);
    json_key(j, "cached_free_fits");
    json_bool(j, d->cached_free >= d->oom_requested);
    json_stack(j, s, d->oom_stack);
    json_obj_end(j);
}

static void json_trace(struct json *j, const struct snapshot *s, const struct snap_device *d)
{
    json_key(j, "trace");
    if (!d->has_trace) {
        json_null(j);
        return;
    }
    json_obj_begin(j);
    json_key(j, "entries");
    json_int(j, d->trace_entries);
    json_key(j, "peak_allocated_bytes");
    json_bytes(j, snapshot_trace_peak(d));
    json_key(j, "peak_index");
    if (d->peak_index < 0) json_null(j);
    else json_int(j, d->peak_index);
    json_key(j, "peak_time_us");
    json_bytes(j, d->peak_time_us);
    json_key(j, "leaks");
    json_arr_begin(j);
    for (size_t i = 0; i < d->n_leaks; i++) {
        json_obj_begin(j);
        json_stack(j, s, d->leaks[i].stack);
        json_key(j, "alive_count");
        json_int(j, d->leaks[i].alive);
        json_key(j, "alive_bytes");
        json_bytes(j, d->leaks[i].bytes);
        json_key(j, "first_index");
        json_int(j, d->leaks[i].first);
        json_key(j, "last_index");
        json_int(j, d->leaks[i].last);
        json_obj_end(j);
    }
    json_arr_end(j);
    json_obj_end(j);
}

static void json_device(struct json *j, const struct snapshot *s, int i, long top)
{
    const struct snap_device *d = &s->dev[i];
    json_obj_begin(j);
    json_key(j, "device");
    json_int(j, i);
    json_key(j, "reserved_bytes");
    json_bytes(j, d->reserved);
    json_key(j, "allocated_bytes");
    json_bytes(j, d->allocated);
    json_key(j, "active_bytes");
    json_bytes(j, d->active);
    json_key(j, "requested_bytes");
    json_bytes(j, d->requested);
    json_key(j, "largest_free_block_bytes");
    json_bytes(j, d->largest_free);
    json_key(j, "cached_free_bytes");
    json_bytes(j, d->cached_free);
    json_key(j, "segments");
    json_int(j, d->segments);
    json_key(j, "blocks");
    json_int(j, d->blocks);
    json_pools(j, d);
    json_top(j, s, i, top);
    json_classes(j, d);
    json_oom(j, s, d);
    json_trace(j, s, d);
    json_obj_end(j);
}

static void json_settings(struct json *j, const struct snapshot *s)
{
    json_key(j, "allocator_settings");
    if (!s->settings) {
        json_null(j);
        return;
    }
    json_obj_begin(j);
    for (const char *l = s->settings; *l;) {
        const char *eq = strchr(l, '='), *e = strchr(l, '\n');
        if (!eq || !e) break;
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(eq - l), l);
        json_key(j, key);
        json_strn(j, eq + 1, (size_t)(e - eq - 1));
        l = e + 1;
    }
    json_obj_end(j);
}

static void json_snapshot(struct json *j, const char *file, const struct snapshot *s, long top)
{
    json_obj_begin(j);
    json_key(j, "schema");
    json_str(j, "oomlab.snapshot.v1");
    json_key(j, "file");
    json_str(j, file);
    json_key(j, "format");
    json_str(j, s->format);
    json_key(j, "bytes_read");
    json_int(j, (long long)s->bytes_read);
    json_key(j, "skipped_entries");
    json_int(j, s->bad_entries);
    json_key(j, "devices");
    json_arr_begin(j);
    for (int i = 0; i < SNAP_MAX_DEVICES; i++)
        if (s->dev[i].present || s->dev[i].has_trace) json_device(j, s, i, top);
    json_arr_end(j);
    json_settings(j, s);
    json_obj_end(j);
}

/* ---- two files ---- */

static int json_growth(const struct snap_cli *cli, const struct snapshot *s,
                       const struct snap_growth *g, long shown)
{
    struct json j;
    json_init(&j, stdout, true);
    json_obj_begin(&j);
    json_key(&j, "schema");
    json_str(&j, "oomlab.snapshot-diff.v1");
    json_key(&j, "before");
    json_snapshot(&j, cli->files[0], &s[0], cli->top);
    json_key(&j, "after");
    json_snapshot(&j, cli->files[1], &s[1], cli->top);
    json_key(&j, "grew");
    json_arr_begin(&j);
    for (long i = 0; i < shown; i++) {
        json_obj_begin(&j);
        json_key(&j, "frames");
        json_frames(&j, g[i].stack);
        json_key(&j, "library_frames");
        json_int(&j, (long long)g[i].library);
        json_key(&j, "before_bytes");
        json_bytes(&j, g[i].before);
        json_key(&j, "after_bytes");
        json_bytes(&j, g[i].after);
        json_key(&j, "delta_bytes");
        json_int(&j, g[i].after - g[i].before);
        json_key(&j, "before_count");
        json_int(&j, g[i].before_count);
        json_key(&j, "after_count");
        json_int(&j, g[i].after_count);
        json_obj_end(&j);
    }
    json_arr_end(&j);
    json_obj_end(&j);
    return json_finish(&j);
}

static int text_growth(const struct snap_cli *cli, const struct snapshot *s,
                       const struct snap_growth *g, long n, long shown)
{
    int64_t rb = 0, ra = 0, ab = 0, aa = 0;
    for (int i = 0; i < SNAP_MAX_DEVICES; i++) {
        rb += s[0].dev[i].reserved, ra += s[1].dev[i].reserved;
        ab += s[0].dev[i].allocated, aa += s[1].dev[i].allocated;
    }
    char x[32], y[32];
    printf("%s -> %s\n", cli->files[0], cli->files[1]);
    printf("reserved %s -> %s, ", bytes(rb, x, sizeof x), bytes(ra, y, sizeof y));
    printf("allocated %s -> %s\n", bytes(ab, x, sizeof x), bytes(aa, y, sizeof y));
    printf(n ? "what grew (and shrank), by stack:\n" : "no stack's live memory changed\n");
    for (long i = 0; i < shown; i++) {
        int64_t d = g[i].after - g[i].before;
        int col = printf("  %s%10s %6ld -> %-6ld ", d >= 0 ? "+" : "-",
                         bytes(d >= 0 ? d : -d, x, sizeof x), g[i].before_count,
                         g[i].after_count);
        print_stack(g[i].stack, g[i].library, col);
        printf("\n");
    }
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : -1;
}

static int render_growth(const struct snap_cli *cli, const struct snapshot *s)
{
    struct snap_growth *g = NULL;
    long n = snapshot_growth(&s[0], &s[1], &g);
    if (n < 0) return -1;
    long shown = n < cli->top ? n : cli->top;
    int rc = cli->json ? json_growth(cli, s, g, shown) : text_growth(cli, s, g, n, shown);
    free(g);
    return rc;
}

static bool any_oom(const struct snapshot *s)
{
    for (int i = 0; i < SNAP_MAX_DEVICES; i++)
        if (s->dev[i].has_oom) return true;
    return false;
}

int cmd_snapshot(int argc, char **argv)
{
    struct snap_cli cli = {.top = 10, .memory_limit = PICKLE_DEFAULT_MEMORY};
    int rc = parse_args(&cli, argc, argv);
    if (rc != CMD_CONTINUE) return rc;
    static struct snapshot s[2];
    struct oomlab_err err = {{0}};
    for (int i = 0; i < cli.n_files; i++)
        if (load(&cli, cli.files[i], &s[i], &err) < 0) {
            if (i) snapshot_release(&s[0]);
            return cmd_fail("snapshot", &err, EXIT_USAGE);
        }
    int out;
    if (cli.n_files == 2) {
        out = render_growth(&cli, s);
    } else if (cli.json) {
        struct json j;
        json_init(&j, stdout, true);
        json_snapshot(&j, cli.files[0], &s[0], cli.top);
        out = json_finish(&j);
    } else {
        out = render_text(&cli, &s[0]);
        if (fflush(stdout) != 0 || ferror(stdout)) out = -1;
    }
    bool oom = any_oom(&s[cli.n_files - 1]);
    for (int i = 0; i < cli.n_files; i++) snapshot_release(&s[i]);
    if (out < 0) {
        oomlab_err_set(&err, "cannot write the report: %s", strerror(errno));
        return cmd_fail("snapshot", &err, EXIT_ERROR);
    }
    return oom ? EXIT_FOUND : EXIT_OK;
}
