/* procstat: parsing of Linux /proc text (pid/stat, pid/cmdline, uptime) into
 * plain values, on a buffer the caller read, so the rules are unit-tested and
 * fuzzed without a /proc. Nothing here allocates or touches the system. */
#ifndef OOMLAB_PROCSTAT_H
#define OOMLAB_PROCSTAT_H

#include <stddef.h>

struct procstat {
    long pid;
    char comm[64]; /* between the first '(' and the LAST ')': may hold ') (' */
    char state;    /* R S D Z T t X I ... */
    long ppid;
    unsigned long long start_ticks; /* field 22: clock ticks after boot */
    long long rss_pages;            /* field 24; -1 unknown */
};

/* Parse the contents of /proc/PID/stat (len bytes, no NUL needed).
 * 0, or -1 when the text is not a stat line. */
int procstat_parse(const char *buf, size_t len, struct procstat *out);

/* /proc/PID/cmdline (NUL-separated arguments) into one line: arguments
 * joined by single spaces, control bytes shown as '?', truncated to fit
 * size (always NUL-terminated). Returns the length written. */
size_t procstat_cmdline(const char *raw, size_t len, char *out, size_t size);

/* /proc/uptime's first figure in seconds; -1 when unreadable. */
double procstat_uptime(const char *buf, size_t len);

#endif
