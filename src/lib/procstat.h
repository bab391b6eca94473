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
    long long cpu_ticks;            /* utime + stime (fields 14, 15): CPU time of
                                       all its threads, in clock ticks; -1 unknown */
};

/* Parse the contents of /proc/PID/stat (len bytes, no NUL needed); comm is
 * made safe to print (procstat_clean). 0, or -1 when the text is not a stat
 * line. */
int procstat_parse(const char *buf, size_t len, struct procstat *out);

/* /proc/PID/cmdline (NUL-separated arguments) into one line: arguments
 * joined by single spaces, made safe to print (procstat_clean), truncated
 * to fit size on a character boundary (always NUL-terminated). Returns the
 * length written. */
size_t procstat_cmdline(const char *raw, size_t len, char *out, size_t size);

/* A process chooses its own command line and name, so before a terminal
 * sees them: every byte that is not valid UTF-8, every control character
 * (C0, DEL, C1 — ESC and CSI start terminal escapes) and the bidirectional
 * overrides (U+202A-202E, U+2066-2069, which reorder what is shown) become
 * '?', in place. s is NUL-terminated; returns its new length. */
size_t procstat_clean(char *s);

/* The longest prefix of s of at most max bytes that does not split a UTF-8
 * character, for printf("%.*s"). */
int procstat_clip(const char *s, size_t max);

/* /proc/uptime's first figure in seconds; -1 when unreadable. */
double procstat_uptime(const char *buf, size_t len);

#endif
