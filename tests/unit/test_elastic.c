/* torchelastic's failure summary (lib/elastic) on the shapes torch prints:
 * the ChildFailedError table (lzhxmu/CPPO#6, huggingface/peft#2111), the
 * newer signal name after the pid (pytorch/pytorch#175254), the agent's
 * "failed (exitcode: -9) local_rank: 2" line (xiaomi-research/time-r1#9).
 * The launchers' other lines, each shape from a real log: the Failures: part
 * of a table (huggingface/accelerate#1519), the agent's restart line
 * (shun-zheng/Doc2EDAG#24), its SIGTERMs in three logger formats
 * (DachengLi1/LongChat#9, PKU-YuanGroup/Open-Sora-Plan#512,
 * OEvortex/unsloth#10), and srun's task lines (chrisknewman/tusas#149,
 * hafs-community/HAFS#101, ComputationalRadiationPhysics/picongpu#198,
 * desihub/desispec#2744, aertslab/pySCENIC#456). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/elastic.h"
#include "lib/msg.h"

static void feed(struct elastic_state *s, const char *text)
{
    elastic_init(s);
    while (*text) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        elastic_line(s, text, n);
        text += n + (nl != NULL);
    }
}

static void test_table_sigkill(void **state)
{
    (void)state;
    struct elastic_state s;
    feed(&s, "torch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n"
             "============================================================\n"
             "train.py FAILED\n"
             "Failures:\n  <NO_OTHER_FAILURES>\n"
             "Root Cause (first observed failure):\n[0]:\n"
             "  time      : 2025-05-21_15:43:03\n"
             "  host      : node-7\r\n"
             "  rank      : 12 (local_rank: 4)\n"
             "  exitcode  : -9 (pid: 14750)\n"
             "  error_file: <N/A>\n"
             "  traceback : Signal 9 (SIGKILL) received by PID 14750\n"
             "============================================================\n"
             "  rank      : 99 (local_rank: 99)\n");
    assert_true(s.root.found);
    assert_int_equal(s.root.rank, 12);
    assert_int_equal(s.root.local_rank, 4);
    assert_int_equal(s.root.exitcode, -9);
    assert_int_equal(s.root.pid, 14750);
    assert_int_equal(elastic_signal(&s.root), 9);
    assert_string_equal(s.root.host, "node-7");
    assert_string_equal(s.root.time, "2025-05-21_15:43:03");
}

static void test_newer_format_and_exit_code(void **state)
{
    (void)state;
    struct elastic_state s;
    feed(&s, "Root Cause (first observed failure):\n[0]:\n  rank      : 0 (local_rank: 0)\n"
             "  exitcode  : -11 (pid: 5277) (SIGSEGV)\n");
    assert_int_equal(elastic_signal(&s.root), 11);
    assert_int_equal(s.root.pid, 5277);
    /* pasted without indentation; an exit code, not a signal */
    feed(&s, "Root Cause (first observed failure):\n[0]:\ntime : 2024-10-01_12:00:23\nhost : algo-1\n"
             "rank : 3 (local_rank: 3)\nexitcode : 1 (pid: 77)\nerror_file: <N/A>\n");
    assert_int_equal(s.root.rank, 3);
    assert_int_equal(s.root.exitcode, 1);
    assert_int_equal(elastic_signal(&s.root), 0);
    /* "Failures:" lists others before the root cause: only the root counts */
    feed(&s, "Failures:\n[1]:\n  rank      : 5 (local_rank: 5)\n  exitcode  : -15 (pid: 9)\n"
             "Root Cause (first observed failure):\n[0]:\n  rank      : 2 (local_rank: 2)\n"
             "  exitcode  : 1 (pid: 8)\n[1]:\n  rank      : 7 (local_rank: 7)\n");
    assert_int_equal(s.root.rank, 2);
    assert_int_equal(s.root.exitcode, 1);
}

static void test_agent_line_and_hostile(void **state)
{
    (void)state;
    struct elastic_state s;
    feed(&s, "E0813 06:19:49.809000 161210 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] "
             "failed (exitcode: -9) local_rank: 2 (pid: 161617) of binary: /usr/bin/python3\n");
    assert_true(s.root.found);
    assert_int_equal(s.root.rank, -1);
    assert_int_equal(s.root.local_rank, 2);
    assert_int_equal(s.root.pid, 161617);
    assert_int_equal(elastic_signal(&s.root), 9);
    feed(&s, "Root Cause (first observed failure):\n  rank : 99999999999999999999\n  exitcode : -\n"
             "  rank :\n  host : \n");
    assert_false(s.root.found);
    feed(&s, "nothing of torchelastic here\nrank : 3\n");
    assert_false(s.root.found);
}

/* Every block of a table is a failure; the root cause stays the first
 * table's (accelerate#1519 printed two tables, one per node). */
static void test_failures_of_every_block(void **state)
{
    (void)state;
    struct elastic_state s;
    feed(&s, "train.py FAILED\n"
             "------------------------------------------------------------\n"
             "Failures:\n[1]:\n  time      : 2023-06-03_22:45:52\n  host      : gpu187.cluster.local\n"
             "  rank      : 3 (local_rank: 3)\n  exitcode  : 1 (pid: 19418)\n  error_file: <N/A>\n"
             "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
             "------------------------------------------------------------\n"
             "Root Cause (first observed failure):\n[0]:\n  time      : 2023-06-03_22:45:52\n"
             "  host      : gpu187.cluster.local\n  rank      : 0 (local_rank: 0)\n"
             "  exitcode  : 1 (pid: 19414)\n"
             "============================================================\n"
             "v2-1_mgpus_train_enc_dec.py FAILED\n"
             "Failures:\n  <NO_OTHER_FAILURES>\n"
             "Root Cause (first observed failure):\n[0]:\n  rank      : 4 (local_rank: 0)\n"
             "  exitcode  : 1 (pid: 19401)\n"
             "============================================================\n");
    assert_int_equal(s.root.rank, 0);
    assert_int_equal(s.root.pid, 19414);
    assert_int_equal(s.n_failures, 3);
    assert_int_equal(s.failures[0].rank, 3);
    assert_int_equal(s.failures[0].exitcode, 1);
    assert_int_equal(s.failures[0].pid, 19418);
    assert_int_equal(s.failures[1].rank, 0);
    assert_int_equal(s.failures[2].rank, 4);
    assert_int_equal(s.failures[2].local_rank, 0);
}

static void test_restarts_and_attempts(void **state)
{
    (void)state;
    struct elastic_state s;
    feed(&s, "[rank3]:torch.OutOfMemoryError: CUDA out of memory.\n"
             "INFO:torch.distributed.elastic.agent.server.api:[default] Worker group FAILED. 3/3 attempts left; "
             "will restart worker group\n"
             "INFO:torch.distributed.elastic.agent.server.api:[default] Stopping worker group\n"
             "INFO:torch.distributed.elastic.agent.server.api:[default] Rendezvous complete for workers. Result:\n"
             "  restart_count=1\n"
             "[rank3]:step=1\n"
             "INFO:torch.distributed.elastic.agent.server.api:[default] Worker group FAILED. 2/3 attempts left; "
             "will restart worker group\n"
             "[rank3]:step=1\n"
             "INFO:torch.distributed.elastic.agent.server.api:[default] Detected 1 new nodes from group_rank=0; "
             "will restart worker group\n");
    assert_int_equal(s.restarts, 2); /* a membership change is not a retry (restart_count unchanged) */
    assert_int_equal(s.restart_line[0], 2);
    assert_int_equal(s.restart_line[1], 7);
    assert_int_equal(elastic_attempt_of_line(&s, 1), 0);
    assert_int_equal(elastic_attempt_of_line(&s, 6), 1);
    assert_int_equal(elastic_attempt_of_line(&s, 8), 2);
    assert_int_equal(s.line, 9);
}

static void test_agent_sigterms(void **state)
{
    (void)state;
    struct elastic_state s;
    feed(&s, "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 24901 closing signal SIGTERM\n"
             "WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 24902 closing signal SIGTERM\n"
             "[2024-10-28 06:14:36,059] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process "
             "598579 closing signal SIGTERM\n"
             "W0801 13:23:17.366000 32974 torch/distributed/elastic/multiprocessing/api.py:900] Sending process "
             "33051 closing signal SIGTERM\n"
             "E0801 13:23:20.000000 32974 torch/distributed/elastic/multiprocessing/api.py:874] failed "
             "(exitcode: 1) local_rank: 3 (pid: 33054) of binary: /home/ubuntu/pythonn3.11/bin/python3\n"
             "Sending process closing signal SIGTERM\n"
             "Sending process 12 closing signal SIGKILL\n");
    assert_int_equal(s.sigterms, 4);
    assert_int_equal(s.sigterm_line, 1);
    assert_int_equal(s.root.local_rank, 3);
    assert_int_equal(s.root.exitcode, 1);
}

static void test_srun_task_lines(void **state)
{
    (void)state;
    struct elastic_state s;
    char buf[32];
    feed(&s, "slurmstepd: error: Detected 1 oom_kill event in StepId=440575.0. Some of the step tasks have been "
             "OOM Killed.\n"
             "srun: error: nid001277: tasks 1-3: Out Of Memory\n"
             "srun: Terminating StepId=440575.0\n"
             "srun: error: Orion-18-69: task 289: Bus error\n"
             "srun: error: taurusi2031: tasks 10-11: Exited with exit code 1\r\n"
             "srun: error: nid002888: tasks 0-57,59-63: Terminated\n"
             "srun: error: Timed out waiting for job step to complete\n"
             "srun: error: node 1: task 2: Out Of Memory\n"
             "srun: error: n1: task x: Out Of Memory\n"
             "srun: error: n1: tasks 3-1: Out Of Memory\n");
    assert_int_equal(s.n_srun, 4);
    assert_int_equal(s.srun[0].end, ELASTIC_SRUN_OOM);
    assert_string_equal(s.srun[0].host, "nid001277");
    assert_string_equal(s.srun[0].tasks, "1-3");
    assert_int_equal(s.srun[0].first_task, 1);
    assert_int_equal(s.srun[0].n_tasks, 3);
    assert_int_equal(s.srun[0].line, 2);
    assert_int_equal(s.srun[1].end, ELASTIC_SRUN_OTHER);
    assert_string_equal(elastic_srun_end_name(&s.srun[1], buf, sizeof buf), "Bus error");
    assert_int_equal(s.srun[2].end, ELASTIC_SRUN_EXIT);
    assert_int_equal(s.srun[2].exitcode, 1);
    assert_string_equal(elastic_srun_end_name(&s.srun[2], buf, sizeof buf), "exit code 1");
    assert_int_equal(s.srun[3].end, ELASTIC_SRUN_TERMINATED);
    assert_int_equal(s.srun[3].n_tasks, 63);
    assert_int_equal(s.srun[3].first_task, 0);
    /* more lines than kept are counted */
    elastic_init(&s);
    for (int i = 0; i < ELASTIC_MAX_SRUN + 5; i++) {
        const char *l = "srun: error: h: task 7: Out Of Memory";
        elastic_line(&s, l, strlen(l));
    }
    assert_int_equal(s.n_srun, ELASTIC_MAX_SRUN);
    assert_int_equal(s.srun_dropped, 5);
    /* srun --label's task number (srun(1) -l: "Prepend task number to lines of stdout/err"),
     * padded to the widest task's (SchedMD/slurm src/api/step_io.c _wid): msg.h's one reader */
    assert_int_equal(msg_task_label("2: torch.OutOfMemoryError", 26), 2);
    assert_int_equal(msg_task_label(" 7: x", 5), 7);
    assert_int_equal(msg_task_label("   42: x", 8), 42);
    assert_int_equal(msg_task_label("     7: x", 9), -1);
    assert_int_equal(msg_task_label("12:x", 4), -1);
    assert_int_equal(msg_task_label("step=1 loss", 11), -1);
    assert_int_equal(msg_task_label("3", 1), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_sigkill),
        cmocka_unit_test(test_newer_format_and_exit_code),
        cmocka_unit_test(test_agent_line_and_hostile),
        cmocka_unit_test(test_failures_of_every_block),
        cmocka_unit_test(test_restarts_and_attempts),
        cmocka_unit_test(test_agent_sigterms),
        cmocka_unit_test(test_srun_task_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
