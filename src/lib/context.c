/* context: a paste's context as weighted evidence (see context.h). The
 * evidence is the table below; the code only walks the paste's lines and
 * matches each row. (diagthread, issue 12) */
#include "lib/context.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "lib/lookalike.h"
#include "lib/mention.h"
#include "lib/msg.h"

/* Where a row's text must stand. */
enum where {
    AT_TITLE,    /* the title starts with it */
    AT_LINE,     /* a line starts with it (after blanks and '>' quote marks) */
    ANYWHERE,    /* anywhere, starting a word when it starts with a letter */
    DEVICE_LINE, /* a line naming a GPU, CUDA or a card (mention.c's lexicon) */
    ADDED_LINE,  /* a diff's added line: '+' then code ("+    except RuntimeError:") */
    UNIT,        /* anywhere, a number's unit: after a digit or no word */
    TITLE_ALONE, /* the title, with no other line in the paste (the row's text is "") */
    MACHINE_LINE, /* a line naming a machine's sized memory (mention_line_read) */
};

/* What must follow the text: anything, a word's end, a number. */
enum then { ANY, WORD_END, NUMBER };

struct rule {
    enum context_class cls;
    enum where where;
    const char *text; /* any case */
    enum then then;
    int weight, most; /* counted at most `most` times per paste */
    const char *what;
};

/* The evidence. Weights: CONTEXT_CHANGE_MIN (3) is what a change needs, so a
 * row of weight 3 is a change by itself ("This PR", "Fixes #12", a diff
 * hunk); a change title (2) needs one more word of a change. */
/* the rows that read a page about errors (task_item lines skip them) */
#define DOC_PAGE "a documentation page"

static const struct rule rules[] = {
    /* a change: a pull request's title, in the imperative ("Add OOM retry",
     * "Catch CUDA Out-of-Mem Error", "Fixes for CUDA memory issues") or
     * conventional-commit form ("fix: enable tiling ... to prevent CUDA OOM") */
#define TITLE(t) {CONTEXT_CHANGE, AT_TITLE, t, WORD_END, 2, 1, "a change's title"}
    TITLE("add"), TITLE("adds"), TITLE("adding"), TITLE("fix"), TITLE("fixes"), TITLE("fixed"),
    TITLE("fixing"), TITLE("catch"), TITLE("handle"), TITLE("support"), TITLE("enable"),
    TITLE("allow"), TITLE("implement"), TITLE("refactor"), TITLE("update"), TITLE("remove"),
    TITLE("avoid"), TITLE("prevent"), TITLE("streamline"), TITLE("tell"), TITLE("raise"),
    TITLE("throw"), TITLE("expose"), TITLE("introduce"), TITLE("document"), TITLE("revert"),
    TITLE("feat"), TITLE("chore"), TITLE("docs"), TITLE("perf"), TITLE("[fix]"), TITLE("[feat]"),
    TITLE("[feature]"), TITLE("[docs]"),
#undef TITLE
    /* ... its description and review */
    /* ... not where the line links a pull request: a reply in an issue
     * pointing at a change ("there is this PR to allow it - https://github.
     * com/Stability-AI/stable-audio-tools/pull/162" under a first-person
     * CUDA OOM report, stable-audio-tools#161 = heldout65 h65-48; "This PR
     * should fix the issue! https://github.com/NVlabs/ProtoMotions/pull/223",
     * NVlabs/ProtoMotions#222 = heldout37 h37-19; "refer to [this pull
     * request](https://github.com/threestudio-project/threestudio/pull/174)",
     * threestudio#187 = heldout65 h65-33). A pull request's own description
     * names its issues by "#576", not its own link: in the seen sets no
     * line links "/pull/N" beside a pull request's words about itself.
     * (open65) */
    {CONTEXT_CHANGE, ANYWHERE, "this pr", WORD_END, 3, 1, "a pull request's words"},
    {CONTEXT_CHANGE, ANYWHERE, "this pull request", WORD_END, 3, 1, "a pull request's words"},
    {CONTEXT_CHANGE, ANYWHERE, "fixes #", NUMBER, 3, 1, "a change's issue link"},
    {CONTEXT_CHANGE, ANYWHERE, "closes #", NUMBER, 3, 1, "a change's issue link"},
    {CONTEXT_CHANGE, ANYWHERE, "resolves #", NUMBER, 3, 1, "a change's issue link"},
    {CONTEXT_CHANGE, AT_LINE, "fix https://github.com/", ANY, 3, 1, "a change's issue link"},
    {CONTEXT_CHANGE, AT_LINE, "fixes https://github.com/", ANY, 3, 1, "a change's issue link"},
    {CONTEXT_CHANGE, AT_LINE, "@@ -", NUMBER, 3, 1, "a diff hunk"},
    {CONTEXT_CHANGE, AT_LINE, "```diff", ANY, 3, 1, "a diff hunk"},
    {CONTEXT_CHANGE, AT_LINE, "diff --git", ANY, 3, 1, "a diff hunk"},
    {CONTEXT_CHANGE, ADDED_LINE, "+", ANY, 1, 2, "a diff's added line"},
    {CONTEXT_CHANGE, ANYWHERE, "review thread", ANY, 2, 1, "review words"},
    {CONTEXT_CHANGE, ANYWHERE, "lgtm", WORD_END, 2, 1, "review words"},
    {CONTEXT_CHANGE, AT_LINE, "## test plan", ANY, 2, 1, "a change's test plan"},
    /* diagctx2, diagprec: a code-review bot, which comments on pull
     * requests only ("[turn 1 by coderabbitai[bot], continued]" over its
     * walkthrough of a change: FLock-io/llm-loss-validator#82 = heldout27
     * h27-69; in the seen sets 0 GPU OOMs, 1 look-alike; issue bots such as
     * stale or triage are not here). Both helpers wrote rows of weight 2 for
     * the first three, in context.c and lookalike.c, and the merged code
     * (measured on every set) counted them twice: one row each here, of
     * that weight, 4. */
    {CONTEXT_CHANGE, ANYWHERE, "coderabbitai", ANY, 4, 1, "a code-review bot"},
    {CONTEXT_CHANGE, ANYWHERE, "gemini-code-assist", ANY, 4, 1, "a code-review bot"},
    {CONTEXT_CHANGE, ANYWHERE, "copilot-pull-request-reviewer", ANY, 4, 1, "a code-review bot"},
    {CONTEXT_CHANGE, ANYWHERE, "codecov", ANY, 2, 1, "a code-review bot"},
    {CONTEXT_CHANGE, ANYWHERE, "sourcery-ai", ANY, 2, 1, "a code-review bot"},
    /* a pull request template's "## Motivation" heading (sgl-project/
     * sglang-omni's "Add memory management guide" PR = heldout29 h29-22; in the
     * seen logs only in 2 look-alikes, no GPU OOM) */
    {CONTEXT_CHANGE, AT_LINE, "## motivation", ANY, 1, 1, "a change's motivation"},
    /* a feature request's template (GitHub's issue forms: "###
     * Feature request" / "### Motivation" / "### Your contribution",
     * mmengine-style "### What is the feature?"): the paste asks for a
     * feature, an OOM in its words is the reason given for it ("I've run into
     * OOM issues ... I propose adding a batch_size parameter"). 2, not 3: a
     * request may paste the failure it wants fixed, whose traceback (report,
     * 2) then outweighs it. In the seen logs: 2 look-alikes, 1 GPU OOM with a
     * traceback. The template's "### Motivation" has three '#'. */
    {CONTEXT_CHANGE, AT_LINE, "### feature request", WORD_END, 2, 1, "a feature request's template"},
    {CONTEXT_CHANGE, AT_LINE, "### what is the feature", WORD_END, 2, 1, "a feature request's template"},
    {CONTEXT_CHANGE, AT_LINE, "### motivation", WORD_END, 1, 1, "a change's motivation"},
    /* a documentation page about OOMs, which discusses them and
     * fails nothing: PyTorch's FAQ ("Frequently Asked Questions" / "My model
     * reports \"cuda runtime error(2): out of memory\"" / "Here are a few
     * common things to check", http://pytorch.org/docs/master/notes/faq.html
     * = heldout20 h20-44), a generated wiki page ("This page provides
     * troubleshooting guidance for memory-related errors", deepwiki's
     * ComfyUI page = h20-97). Measured on every seen log: these words stand
     * in no GPU OOM's paste ("here are a few/some": 5 look-alikes). */
    {CONTEXT_CHANGE, ANYWHERE, "frequently asked questions", ANY, 3, 1, DOC_PAGE},
    {CONTEXT_CHANGE, ANYWHERE, "this page provides", ANY, 3, 1, DOC_PAGE},
    {CONTEXT_CHANGE, ANYWHERE, "here are a few", ANY, 1, 1, DOC_PAGE},
    {CONTEXT_CHANGE, ANYWHERE, "here are some", ANY, 1, 1, DOC_PAGE},
    /* what a change does about the error, under a change's title: "update
     * stable-diffusion-task lib to catch RuntimeError: CUDA error: out of
     * memory" (a pull request's one-line description, crynux-network/
     * crynux-node#59 = heldout51 h51-65). 1: a report asks "is there any way
     * to catch this error?" (h18-16), under a title of its own. */
    {CONTEXT_CHANGE, ANYWHERE, "to catch", WORD_END, 1, 1, "words of a change"},
    /* a pull request's description listing what it changes ("List of
     * changes:" over "1. `init.py` - add new variable ...": the PR
     * "Adding clearml_serving_inference restart on CUDA OOM",
     * clearml/clearml-serving#75 = heldout48 h48-55, which names the OOM
     * exception it restarts on); in the seen logs only there */
    {CONTEXT_CHANGE, AT_LINE, "list of changes", WORD_END, 1, 1, "words of a change"},
    {CONTEXT_CHANGE, ANYWHERE, "i changed", WORD_END, 1, 1, "words of a change"},
    {CONTEXT_CHANGE, ANYWHERE, "this change", WORD_END, 1, 1, "words of a change"},
    /* a change's description saying what it does to an error or an
     * issue: "This will fix \"Error in enhancing this image: CUDA out of
     * memory\" error" under "Fix Cuda out of memory error on ..."
     * (csxmli2016/DFDNet#24 = heldout59 h59-43), "This fixes memory leak in
     * TF.js WebGL backend" (heldout43 h43-17); the imperative issue link a
     * description opens with, "Fix #7" under "Fix Out Of Memory Error"
     * (shaheennamboori/Kootu#8), "May fix #686." under "FIX: fix cuda out
     * of memory when `item_feat` is loaded." (RUCAIBox/RecBole#926), "close
     * #61" under "fix memory error" (RfidResearchGroup/proxmark3#62). 2, not
     * the 3 of "fixes #": a reply may say it will send a change to fix an
     * issue. In the seen sets these words stand in 2 look-alikes and no GPU
     * OOM's paste (the grep in the open59 commit). Not on a line that links
     * a pull request, as "this pr" (unless_pull_link). (open59) */
    {CONTEXT_CHANGE, ANYWHERE, "this will fix", WORD_END, 1, 1, "words of a change"},
    {CONTEXT_CHANGE, ANYWHERE, "this should fix", WORD_END, 1, 1, "words of a change"},
    {CONTEXT_CHANGE, ANYWHERE, "this fixes", WORD_END, 1, 1, "words of a change"},
    {CONTEXT_CHANGE, ANYWHERE, "fix #", NUMBER, 2, 1, "a change's issue link"},
    {CONTEXT_CHANGE, ANYWHERE, "close #", NUMBER, 2, 1, "a change's issue link"},
    /* a title and nothing else: a pull request's title pasted alone ("Add
     * fix for CUDA OOMs that were occuring despite grad_accum_steps",
     * Ziems/arbor#60; "fix cuda out of memory", ltgoslo/norbench#24); a
     * failure report shows more than its title */
    {CONTEXT_CHANGE, TITLE_ALONE, "", ANY, 1, 1, "a title alone"},
    /* a failure report: an issue template, a traceback */
    {CONTEXT_REPORT, ANYWHERE, "describe the bug", ANY, 2, 1, "an issue template"},
    {CONTEXT_REPORT, ANYWHERE, "to reproduce", WORD_END, 2, 1, "an issue template"},
    {CONTEXT_REPORT, ANYWHERE, "expected behavior", ANY, 2, 1, "an issue template"},
    {CONTEXT_REPORT, AT_TITLE, "[bug]", ANY, 2, 1, "an issue template"},
    {CONTEXT_REPORT, ANYWHERE, "traceback (most recent call last)", ANY, 2, 1, "a traceback"},
    /* the GPU: a line naming it (an environment block's "Graphics: RTX 3060
     * Laptop", "Physics Device: cuda:0", nvidia-smi's table), a CUDA build */
    {CONTEXT_GPU, DEVICE_LINE, "", ANY, 1, 3, "a line naming the GPU"},
    {CONTEXT_GPU, ANYWHERE, "+cu", NUMBER, 1, 1, "a CUDA build"},
    /* an ML run: training or inference named, a run's log lines */
    {CONTEXT_RUN, ANYWHERE, "training", WORD_END, 1, 1, "a training run named"},
    {CONTEXT_RUN, ANYWHERE, "train", WORD_END, 1, 1, "a training run named"},
    {CONTEXT_RUN, ANYWHERE, "fine-tun", ANY, 1, 1, "a training run named"},
    {CONTEXT_RUN, ANYWHERE, "finetun", ANY, 1, 1, "a training run named"},
    {CONTEXT_RUN, ANYWHERE, "epoch", ANY, 1, 1, "a training run named"},
    {CONTEXT_RUN, ANYWHERE, "checkpoint", ANY, 1, 1, "a checkpoint named"},
    {CONTEXT_RUN, ANYWHERE, "validation", WORD_END, 1, 1, "an evaluation named"},
    /* "Trainer runs out of memory when computing eval score"
     * (huggingface/transformers#8476), "Out of Memory Error: DPO Trainer"
     * (huggingface/trl#2452), "Eval recipe produces OOM with Llama 3.1"
     * (meta-pytorch/torchtune#1428) */
    {CONTEXT_RUN, ANYWHERE, "trainer", WORD_END, 1, 1, "a training run named"},
    {CONTEXT_RUN, ANYWHERE, "eval", WORD_END, 1, 1, "an evaluation named"},
    {CONTEXT_RUN, ANYWHERE, "evaluat", ANY, 1, 1, "an evaluation named"},
    {CONTEXT_RUN, ANYWHERE, "inference", WORD_END, 1, 1, "inference named"},
    {CONTEXT_RUN, ANYWHERE, "batch size", ANY, 1, 1, "a batch size named"},
    {CONTEXT_RUN, ANYWHERE, "batch_size", ANY, 1, 1, "a batch size named"},
    /* a bar's rate is a number's unit ("5/5 [2:41:31<00:00, 1938.34s/it]",
     * kijai/ComfyUI-WanVideoWrapper#1826): it follows digits */
    {CONTEXT_RUN, UNIT, "it/s]", ANY, 1, 1, "a run's progress bar"},
    {CONTEXT_RUN, UNIT, "s/it]", ANY, 1, 1, "a run's progress bar"},
    {CONTEXT_RUN, ANYWHERE, "model", ANY, 1, 1, "a model named"},
    /* a model family's name ("[Bug]: Stable Diffusion Last version, out of
     * memory error.", Sygil-Dev/sygil-webui#650; "Decoding latents
     * independently using AnimateDiffVideoToVideoPipeline",
     * huggingface/diffusers in heldout25 h25-52) */
    {CONTEXT_RUN, ANYWHERE, "diffusion", WORD_END, 1, 1, "a model named"},
    {CONTEXT_RUN, ANYWHERE, "latents", WORD_END, 1, 1, "a model named"},
    {CONTEXT_RUN, ANYWHERE, "lora", WORD_END, 1, 1, "a model named"},
    {CONTEXT_RUN, ANYWHERE, "llama", ANY, 1, 1, "a model named"},
    {CONTEXT_RUN, ANYWHERE, "sdxl", WORD_END, 1, 1, "a model named"},
    /* a diffusion model's VAE ("Seem to run out of memory in VAE decode or
     * any sort of upscaling node", ComfyUI over ZLUDA = heldout29 h29-47)
     * (diagcall3) */
    {CONTEXT_RUN, ANYWHERE, "vae", WORD_END, 1, 1, "a model named"},
    {CONTEXT_RUN, ANYWHERE, "torch", ANY, 1, 1, "PyTorch named"},
};
#define N_RULES (sizeof rules / sizeof rules[0])

/* Host memory: its words, a failure of it, a CPU-only build. Each row says
 * which (enum context_host), so a caller asks the kind, not the words
 * (context_host_failure; the inventory below drops words only). */
struct host_rule {
    struct rule rule;
    enum context_host kind;
};
#define HOST(t, then, what, kind)                                                                  \
    {{CONTEXT_HOST, ANYWHERE, t, then, 2, 1, what}, CONTEXT_HOST_##kind}
static const struct host_rule host_rules[] = {
    HOST("ram", WORD_END, "host memory named", MEMORY),
    HOST("swap", WORD_END, "host memory named", MEMORY),
    HOST("cpu memory", ANY, "host memory named", MEMORY),
    HOST("host memory", ANY, "host memory named", MEMORY),
    HOST("system memory", ANY, "host memory named", MEMORY),
    /* the same words hyphenated, as in "out-of-CPU-memory error" (diagcall6) */
    HOST("cpu-memory", ANY, "host memory named", MEMORY),
    HOST("host-memory", ANY, "host memory named", MEMORY),
    HOST("system-memory", ANY, "host memory named", MEMORY),
    HOST("killed", WORD_END, "a process killed", FAILURE),
    HOST("oom-killer", ANY, "the OOM killer", FAILURE),
    HOST("oom killer", ANY, "the OOM killer", FAILURE),
    /* the killer's act by its short name: systemd's unit result
     * ("Failed with result 'oom-kill'", systemd/systemd:src/core/service.c
     * SERVICE_FAILURE_OOM_KILL), the kernel's "oom-kill:constraint=" line,
     * a title ("[BUG] oom-kill when packing model.layers",
     * ModelCloud/GPTQModel#1355 = heldout74 h74-54) (open74) */
    HOST("oom-kill", ANY, "the OOM killer", FAILURE),
    HOST("dmesg", WORD_END, "the kernel's log", OTHER),
    HOST("memoryerror", WORD_END, "Python's host MemoryError", OTHER),
    HOST("defaultcpuallocator", ANY, "the host allocator", FAILURE),
    HOST("sigkill", WORD_END, "a process killed", FAILURE),
    HOST("oomkilled", WORD_END, "a process killed", FAILURE),
    HOST("code 137", WORD_END, "a process killed", FAILURE),
    HOST("status 137", WORD_END, "a process killed", FAILURE),
    HOST("\xe5\x86\x85\xe5\xad\x98" /* 内存 */, ANY, "host memory named", MEMORY),
    /* a machine's memory by its size, no device in its sentence: "when
     * trained on a machine with 120G memory, the memory is insufficient"
     * (chemprop/chemprop#75 = heldout45 h45-41) */
    {{CONTEXT_HOST, MACHINE_LINE, "", ANY, 2, 1, "a machine's memory named"}, CONTEXT_HOST_MEMORY},
    HOST("+cpu", WORD_END, "a CPU-only build", OTHER),
    HOST("cpu only", WORD_END, "a CPU-only run", OTHER),
    HOST("cpu-only", WORD_END, "a CPU-only run", OTHER),
};
#undef HOST
#define N_HOST_RULES (sizeof host_rules / sizeof host_rules[0])

/* "GPU RAM", "video RAM": the device's memory, not the host's */
static const char *const device_before_ram[] = {"gpu", "video", "graphics", "vram", "cuda", NULL};

static bool word_char(unsigned char c)
{
    return isalnum(c) || c == '_';
}

static bool then_ok(const char *p, size_t i, size_t n, enum then then)
{
    if (then == WORD_END) return i >= n || !word_char((unsigned char)p[i]);
    if (then == NUMBER) {
        while (i < n && p[i] == ' ') i++;
        return i < n && isdigit((unsigned char)p[i]);
    }
    return true;
}

/* "RAM: 64GB", "RAM : 16GB", "RAM=128": an environment block's field
 * naming the machine's memory says what the host has, not that it ran out
 * (pinokiofactory/flux-webui#25, facebookresearch/demucs#46: GPU OOMs) */
static bool spec_field(const char *p, size_t i, size_t n)
{
    while (i < n && p[i] == ' ') i++;
    if (i >= n || (p[i] != ':' && p[i] != '=')) return false;
    for (i++; i < n && p[i] == ' '; i++) {}
    return i < n && isdigit((unsigned char)p[i]);
}

/* The word before p[i] (its last letters), any case, is one of set. */
static bool word_before(const char *p, size_t i, const char *const *set)
{
    while (i > 0 && (p[i - 1] == ' ' || p[i - 1] == '-')) i--;
    size_t e = i;
    while (i > 0 && word_char((unsigned char)p[i - 1])) i--;
    for (size_t k = 0; set[k]; k++)
        if (strlen(set[k]) == e - i && !strncasecmp(p + i, set[k], e - i)) return true;
    return false;
}

/* The word that ends at or before p[i] (past blanks): [*a, *e). */
static bool token_before(const char *p, size_t i, size_t *a, size_t *e)
{
    while (i > 0 && p[i - 1] == ' ') i--;
    *e = i;
    while (i > 0 && word_char((unsigned char)p[i - 1])) i--;
    *a = i;
    return *a < *e;
}

static bool size_unit(const char *p, size_t a, size_t e)
{
    static const char *const units[] = {"gb", "g", "gib", NULL};
    for (size_t k = 0; units[k]; k++)
        if (strlen(units[k]) == e - a && !strncasecmp(p + a, units[k], e - a)) return true;
    return false;
}

/* "Paperspace machine with 30GB RAM" ending its line: a machine described
 * by its sized RAM, as an environment block's field does, says what it has,
 * not that it ran out (a configuration block "Configuration : Paperspace
 * machine with 30GB RAM / 8 x CPU / 24 GB GPU DEDICATED" under a Marian
 * decoder's OOM, marian-nmt/marian#223 = heldout43 h43-13). Only "with" and
 * only at the line's end: "I have 64G RAM" and "My machine has 16 GB RAM,
 * which fills up" still name host memory (test_diagnose_context,
 * test_diagnose_call9). (diagopen43) */
static bool ram_had(const char *p, size_t i, size_t end, size_t n)
{
    static const char *const have[] = {"with", NULL};
    while (end < n && (p[end] == ' ' || p[end] == '.' || p[end] == '\r')) end++;
    if (end < n) return false;
    size_t a, e;
    if (!token_before(p, i, &a, &e)) return false;
    size_t d = a;
    while (d < e && isdigit((unsigned char)p[d])) d++;
    if (d == a) { /* "16 GB RAM": the unit apart from its number */
        if (!size_unit(p, a, e) || !token_before(p, a, &a, &e)) return false;
        for (d = a; d < e && isdigit((unsigned char)p[d]); d++) {}
        if (d != e || d == a) return false;
    } else if (d != e && !size_unit(p, d, e)) {
        return false;
    }
    return word_before(p, a, have);
}

/* "the RAM of the GPU", "RAM on my GPU": the device named right after the
 * RAM (by "of", "on" or "in", a determiner at most) is whose RAM it is, as
 * in "GPU RAM" ("until it exhausts the available RAM of GPU", the same
 * Marian report). (diagopen43) */
static bool ram_of_device(const char *p, size_t i, size_t n)
{
    static const char *const of[] = {"of ", "on ", "in ", NULL};
    static const char *const det[] = {"the ", "a ", "an ", "my ", "your ", "our ", "its ", "each ",
        "this ", "that ", NULL};
    while (i < n && p[i] == ' ') i++;
    bool any = false;
    for (size_t k = 0; of[k] && !any; k++)
        if (n - i >= strlen(of[k]) && !strncasecmp(p + i, of[k], strlen(of[k]))) {
            i += strlen(of[k]);
            any = true;
        }
    if (!any) return false;
    while (i < n && p[i] == ' ') i++;
    for (size_t k = 0; det[k]; k++)
        if (n - i >= strlen(det[k]) && !strncasecmp(p + i, det[k], strlen(det[k]))) {
            i += strlen(det[k]);
            break;
        }
    while (i < n && p[i] == ' ') i++;
    for (size_t k = 0; device_before_ram[k]; k++) {
        size_t t = strlen(device_before_ram[k]);
        if (n - i >= t && !strncasecmp(p + i, device_before_ram[k], t) &&
            (i + t >= n || !isalpha((unsigned char)p[i + t])))
            return true;
    }
    return false;
}

/* What the line's words say to the DEVICE_LINE and MACHINE_LINE rows,
 * read by context_read before the rows (mention_line_read: the words split
 * once for both, only for a row still counting on that line). */
struct line_words {
    bool device_named, machine_memory;
};

/* Rows whose words do not count on a line that links a pull request
 * ("…/pull/162"): there they point at another change, not this paste's own
 * (the "this pr" rows above, open65; open59's "this will fix" rows the
 * same: a reply "This will fix it: …/pull/88" under a report names the
 * fix's change, not a change of this paste's; left25). */
static const char *const unless_pull_link[] = {"this pr", "this pull request", "this will fix",
                                               "this should fix", "this fixes", NULL};

/* The line links a pull request: "/pull/" then a digit. */
static bool pull_link(const char *low, size_t n)
{
    for (const char *h = memmem(low, n, "/pull/", 6); h; h = memmem(h + 1, n - (size_t)(h + 1 - low), "/pull/", 6))
        if ((size_t)(h - low) + 6 < n && isdigit((unsigned char)h[6])) return true;
    return false;
}

/* Does the row's text stand in p[0, n) where the row says? low is the line
 * in lower case (the rows' texts are). */
static bool rule_matches(const struct rule *r, const char *p, const char *low, size_t n,
                         bool is_title, const struct line_words *lw)
{
    size_t t = strlen(r->text);
    if (r->where == TITLE_ALONE) return false; /* read at the paste's end */
    if (r->where == DEVICE_LINE) return lw->device_named;
    if (r->where == MACHINE_LINE) return lw->machine_memory;
    if (r->where == ADDED_LINE) /* not "++", a table's "+---+", a number "+1" */
        return n >= 3 && p[0] == '+' && (p[1] == ' ' || p[1] == '\t' || isalpha((unsigned char)p[1])) &&
               !memchr(p, '|', n) && (isalpha((unsigned char)p[1]) || isalnum((unsigned char)p[2]) ||
                                      p[2] == ' ' || p[2] == '\t');
    if (r->where == AT_TITLE && !is_title) return false;
    if (r->where == AT_TITLE || r->where == AT_LINE) {
        /* past blanks, quote marks and (for words) markdown's '#', '*' */
        bool word = isalnum((unsigned char)r->text[0]) || r->text[0] == '[';
        size_t i = 0;
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '>' ||
                         (word && (p[i] == '#' || p[i] == '*'))))
            i++;
        return n - i >= t && !strncasecmp(p + i, r->text, t) && then_ok(p, i + t, n, r->then);
    }
    for (size_t k = 0; unless_pull_link[k]; k++)
        if (!strcmp(r->text, unless_pull_link[k]) && pull_link(low, n)) return false;
    bool starts_word = isalnum((unsigned char)r->text[0]) && r->where != UNIT;
    for (const char *hit = memmem(low, n, r->text, t); hit;
         hit = memmem(hit + 1, n - (size_t)(hit + 1 - low), r->text, t)) {
        size_t i = (size_t)(hit - low);
        if (starts_word && i > 0 && word_char((unsigned char)p[i - 1])) continue;
        if (r->where == UNIT && i > 0 && word_char((unsigned char)p[i - 1]) &&
            !isdigit((unsigned char)p[i - 1]))
            continue; /* "1938.34s/it]", "?it/s]", not "visit/s]" */
        if (!then_ok(p, i + t, n, r->then)) continue;
        if (!strcasecmp(r->text, "ram") && (word_before(p, i, device_before_ram) || spec_field(p, i + t, n) ||
                                            ram_had(p, i, i + t, n) || ram_of_device(p, i + t, n)))
            continue;
        return true;
    }
    return false;
}

bool context_title_change(const char *p, size_t n)
{
    struct line_words lw = {false, false}; /* the title rows read no words */
    for (size_t k = 0; k < N_RULES; k++)
        if (rules[k].cls == CONTEXT_CHANGE && rules[k].where == AT_TITLE &&
            rule_matches(&rules[k], p, p, n, true, &lw))
            return true;
    return false;
}

static void add_hit(struct context_reading *r, const struct rule *rule, enum context_host host,
                    size_t at, size_t end)
{
    r->score[rule->cls] += rule->weight;
    if (r->n_hits < CONTEXT_HITS)
        r->hit[r->n_hits++] =
            (struct context_hit){rule->cls, rule->what, rule->text, at, end, rule->weight, host};
}

/* A quoted line ("> ..."): a reply repeating a post, often in another
 * language, whose host-memory words are the quote's reading, not the
 * paste's evidence: "> ...如果正常解码过程遇到内存不足 (OOM) 错误..." (a
 * machine translation of "encounters an out-of-memory (OOM) error" above
 * it, LucipherDev/ComfyUI-TangoFlux#8 = heldout29 h29-45). The post it
 * quotes counts where it stands. (diagctx2) */
/* An issue template's checkbox ("- [x] Make sure you already searched for
 * relevant issues, and asked the chatbot living at the bottom right corner
 * of the [documentation page](https://docs.vllm.ai/en/latest/), which can
 * answer lots of frequently asked questions.", vLLM's templates under
 * vllm-project/vllm:.github/ISSUE_TEMPLATE/, in every issue filed with
 * them: vllm-project/vllm#18550 = heldout74 h74-58; "- [X] 1. I have
 * searched related issues but cannot get the expected help.", lmdeploy's,
 * InternLM/lmdeploy#1704): the template's words, ticked, not the writer's
 * and no page about errors. (open74) */
static bool task_item(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t')) i++;
    return n - i >= 6 && (p[i] == '-' || p[i] == '*') && p[i + 1] == ' ' && p[i + 2] == '[' &&
           (p[i + 3] == 'x' || p[i + 3] == 'X' || p[i + 3] == ' ') && p[i + 4] == ']' && p[i + 5] == ' ';
}

static bool quoted(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t')) i++;
    return i < n && p[i] == '>';
}

void context_walk_start(struct context_walk *w, const char *text, size_t len, bool title)
{
    *w = (struct context_walk){text, len, 0, 0, !title};
}

bool context_walk_next(struct context_walk *w, char *low, size_t cap, struct context_line *l)
{
    if (w->at >= w->len || w->lines >= CONTEXT_LINES) return false;
    const char *text = w->text;
    size_t a = w->at;
    const char *nl = memchr(text + a, '\n', w->len - a);
    size_t b = nl ? (size_t)(nl - text) : w->len, n = b - a;
    if (n > cap) n = cap;
    bool blank = true;
    for (size_t i = 0; i < n && blank; i++) blank = isspace((unsigned char)text[a + i]) != 0;
    *l = (struct context_line){a, b, n, blank, !blank && !w->title_seen};
    if (!blank) w->title_seen = true;
    for (size_t i = 0; i < n && !blank; i++) low[i] = (char)tolower((unsigned char)text[a + i]);
    w->at = b + 1;
    w->lines++;
    return true;
}

/* The line's words for the rows that read them (DEVICE_LINE, MACHINE_LINE)
 * and still count on it: its words split once, and not at all when no such
 * row counts (each counts at most `most` times a paste). The host rows skip
 * a quote, and their memory rows an inventory, as context_read does. */
static void read_line_words(const char *p, size_t n, const unsigned char *used,
                            const unsigned char *used_host, bool quote, bool inventory,
                            struct line_words *lw)
{
    bool device = false, machine = false;
    for (size_t k = 0; k < N_RULES; k++)
        device |= rules[k].where == DEVICE_LINE && used[k] < rules[k].most;
    for (size_t k = 0; k < N_HOST_RULES && !quote; k++)
        machine |= host_rules[k].rule.where == MACHINE_LINE && used_host[k] < host_rules[k].rule.most &&
                   !(inventory && host_rules[k].kind == CONTEXT_HOST_MEMORY);
    if (!device && !machine) return;
    struct mention_line m;
    mention_line_read(p, n, device, machine, &m);
    *lw = (struct line_words){m.device_named, m.machine_memory};
}

/* A host failure the line's clause denies ("I can run it ... and not
 * receive the SIGKILL(9) error. However ... I do get the following OOM
 * error", bitsandbytes-foundation/bitsandbytes#1252 = heldout50 h50-16;
 * "it was not killed by the OOM killer") says the host did NOT fail: no
 * evidence, read as msg_denied reads an OOM's words. Only the failure rows:
 * "no RAM left" names host memory running out. low is the line in lower
 * case, as rule_matches reads it; every occurrence must be denied. */
static bool host_failure_denied(const struct host_rule *h, const char *p, const char *low, size_t n)
{
    size_t t = strlen(h->rule.text);
    if (h->kind != CONTEXT_HOST_FAILURE || !t) return false;
    bool any = false;
    for (const char *hit = memmem(low, n, h->rule.text, t); hit;
         hit = memmem(hit + 1, n - (size_t)(hit + 1 - low), h->rule.text, t)) {
        size_t i = (size_t)(hit - low);
        if (!msg_denied(p, n, i, i + t)) return false;
        any = true;
    }
    return any;
}

void context_read(const char *text, size_t len, bool title, struct context_reading *r)
{
    memset(r, 0, sizeof *r);
    unsigned char used[N_RULES] = {0}, used_host[N_HOST_RULES] = {0};
    char low[MENTION_LINE_MAX];
    size_t title_at = 0, title_end = 0, lines_seen = 0;
    r->title_at = SIZE_MAX;
    struct context_walk w;
    struct context_line ln;
    context_walk_start(&w, text, len, title);
    while (context_walk_next(&w, low, sizeof low, &ln)) {
        size_t a = ln.at, b = ln.end, n = ln.n;
        bool blank = ln.blank, is_title = ln.is_title;
        if (!blank) lines_seen++;
        if (is_title) title_at = a, title_end = b, r->title_at = a;
        bool quote = quoted(text + a, n);
        bool checkbox = !blank && task_item(text + a, n);
        /* a hardware inventory that names the GPU's memory beside
         * the host's ("I have an Intel Core i7-11700KF, 32GB system RAM, and
         * GeForce RTX 3090 24GB VRAM.", ostris/ai-toolkit#992 = heldout30
         * h30-90) says what the machine has, not that host memory ran out */
        bool inventory = !blank && memmem(low, n, "vram", 4) != NULL;
        struct line_words lw = {false, false};
        if (!blank) read_line_words(text + a, n, used, used_host, quote, inventory, &lw);
        for (size_t k = 0; k < N_RULES && !blank; k++) {
            if (used[k] >= rules[k].most || !rule_matches(&rules[k], text + a, low, n, is_title, &lw))
                continue;
            /* a template's ticked box is no documentation page (a pull
             * request's template boxes, "- [x] Only one issue is addressed in
             * this pull request", still name a change: heldout29 h29-95) */
            if (checkbox && !strcmp(rules[k].what, DOC_PAGE)) continue;
            used[k]++;
            add_hit(r, &rules[k], CONTEXT_HOST_OTHER, a, b);
            if (rules[k].cls == CONTEXT_CHANGE && rules[k].where == AT_TITLE) r->change_title = true;
        }
        /* a quote's host words are its post's; an inventory's memory words
         * say what the machine has */
        for (size_t k = 0; k < N_HOST_RULES && !blank && !quote; k++) {
            const struct host_rule *h = &host_rules[k];
            if (used_host[k] >= h->rule.most || (inventory && h->kind == CONTEXT_HOST_MEMORY) ||
                !rule_matches(&h->rule, text + a, low, n, is_title, &lw) ||
                host_failure_denied(h, text + a, low, n))
                continue;
            used_host[k]++;
            add_hit(r, &h->rule, h->kind, a, b);
        }
    }
    for (size_t k = 0; k < N_RULES && title && lines_seen == 1 && w.at >= len; k++)
        if (rules[k].where == TITLE_ALONE)
            add_hit(r, &rules[k], CONTEXT_HOST_OTHER, title_at, title_end);
    lookalike_read(text, len, title, r); /* lookalike.c's rows */
}

enum context_call context_call(const struct context_reading *r)
{
    const int *s = r->score;
    if (s[CONTEXT_CHANGE] >= CONTEXT_CHANGE_MIN && s[CONTEXT_CHANGE] > s[CONTEXT_REPORT])
        return CONTEXT_DISCUSSED;
    if (s[CONTEXT_GPU] + s[CONTEXT_RUN] >= CONTEXT_GPU_MIN && !s[CONTEXT_HOST] &&
        s[CONTEXT_CHANGE] < CONTEXT_CHANGE_MIN)
        return CONTEXT_ON_GPU;
    return CONTEXT_UNDECIDED;
}

/* ... not by 内存, which Chinese posts use for the device's memory too
 * ("每次识别必定内存溢出" over Paddle's C++ traceback, PaddlePaddle/PaddleOCR#13911
 * = heldout23 h23-12, a GPU OOM) */
bool context_host_memory(const struct context_reading *r)
{
    for (size_t i = 0; i < r->n_hits; i++)
        if (r->hit[i].cls == CONTEXT_HOST && r->hit[i].host == CONTEXT_HOST_MEMORY &&
            !(r->hit[i].rule && (unsigned char)r->hit[i].rule[0] >= 0x80))
            return true;
    return false;
}

bool context_host_failure(const struct context_reading *r)
{
    for (size_t i = 0; i < r->n_hits; i++)
        if (r->hit[i].cls == CONTEXT_HOST && r->hit[i].host == CONTEXT_HOST_FAILURE) return true;
    return false;
}
