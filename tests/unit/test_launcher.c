/* Unit tests for lib/launcher: each launcher's real variables (torchrun,
 * srun, Open MPI, Hydra), the precedence when one launcher runs under
 * another, garbage values, the job id, and which GPU a rank samples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/launcher.h"

/* An environment as "NAME=value" strings, NULL-terminated. */
static const char *lookup(const char *name, void *ctx)
{
    const char *const *env = ctx;
    size_t n = strlen(name);
    for (size_t i = 0; env[i]; i++)
        if (!strncmp(env[i], name, n) && env[i][n] == '=') return env[i] + n + 1;
    return NULL;
}

static struct launcher_info detect(const char *const *env)
{
    struct launcher_info info;
    launcher_detect(lookup, (void *)env, &info);
    return info;
}

static void test_torchrun(void **state)
{
    (void)state;
    /* torchrun --nnodes 2 --nproc-per-node 4, worker 6 (node 1, local 2) */
    const char *env[] = {"RANK=6", "LOCAL_RANK=2", "GROUP_RANK=1", "ROLE_RANK=6", "WORLD_SIZE=8",
                         "LOCAL_WORLD_SIZE=4", "TORCHELASTIC_RUN_ID=job42", "TORCHELASTIC_RESTART_COUNT=1",
                         "TORCHELASTIC_MAX_RESTARTS=3", NULL};
    struct launcher_info i = detect(env);
    assert_int_equal(i.rank, 6);
    assert_int_equal(i.local_rank, 2);
    assert_int_equal(i.node_rank, 1);
    assert_int_equal(i.world_size, 8);
    assert_int_equal(i.local_world_size, 4);
    assert_int_equal(i.restart, 1);
    assert_string_equal(i.job_id, "torchelastic:job42");
    assert_string_equal(i.rank_from, "RANK");
    assert_int_equal(i.gpu, 2); /* no CUDA_VISIBLE_DEVICES: cuda:LOCAL_RANK */
    assert_true(launcher_is_rank(&i));
}

static void test_slurm(void **state)
{
    (void)state;
    const char *env[] = {"SLURM_JOB_ID=200505", "SLURM_JOBID=200505", "SLURM_PROCID=5", "SLURM_LOCALID=1",
                         "SLURM_NODEID=2", "SLURM_NTASKS=8", "SLURM_NPROCS=8", "SLURM_STEP_ID=0",
                         "CUDA_VISIBLE_DEVICES=3", NULL};
    struct launcher_info i = detect(env);
    assert_int_equal(i.rank, 5);
    assert_int_equal(i.local_rank, 1);
    assert_int_equal(i.node_rank, 2);
    assert_int_equal(i.world_size, 8);
    assert_int_equal(i.local_world_size, -1);
    assert_int_equal(i.restart, -1);
    assert_string_equal(i.job_id, "slurm:200505");
    assert_string_equal(i.job_from, "SLURM_JOB_ID");
    assert_int_equal(i.gpu, 3); /* --gpus-per-task: one GPU per task */
    char id[64];
    assert_int_equal(launcher_default_id(&i, id, sizeof id), 0);
    assert_string_equal(id, "slurm-200505");
}

static void test_mpi(void **state)
{
    (void)state;
    const char *ompi[] = {"OMPI_COMM_WORLD_RANK=3", "OMPI_COMM_WORLD_LOCAL_RANK=1", "OMPI_COMM_WORLD_SIZE=4",
                          "OMPI_COMM_WORLD_LOCAL_SIZE=2", "OMPI_COMM_WORLD_NODE_RANK=1", NULL};
    struct launcher_info i = detect(ompi);
    assert_int_equal(i.rank, 3);
    assert_int_equal(i.local_rank, 1);
    assert_int_equal(i.node_rank, -1); /* NODE_RANK is not a node index */
    assert_int_equal(i.world_size, 4);
    assert_int_equal(i.local_world_size, 2);
    assert_string_equal(i.job_id, "");
    assert_int_equal(launcher_default_id(&i, (char[64]){0}, 64), -1);
    /* mpirun inside a PBS or LSF job: the scheduler's job id */
    const char *pbs[] = {"OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=2", "PBS_JOBID=1234.pbs01", NULL};
    i = detect(pbs);
    assert_string_equal(i.job_id, "pbs:1234.pbs01");
    const char *lsf[] = {"PMI_RANK=1", "PMI_SIZE=2", "LSB_JOBID=5678", NULL};
    i = detect(lsf);
    assert_string_equal(i.job_id, "lsf:5678");
    const char *hydra[] = {"PMI_RANK=2", "PMI_SIZE=4", "MPI_LOCALRANKID=0", "MPI_LOCALNRANKS=2", NULL};
    i = detect(hydra);
    assert_int_equal(i.rank, 2);
    assert_int_equal(i.local_rank, 0);
    assert_int_equal(i.world_size, 4);
    assert_int_equal(i.local_world_size, 2);
}

static void test_nested(void **state)
{
    (void)state;
    /* srun -N2 --ntasks-per-node=1 torchrun --nproc-per-node 4: the worker
     * sees both; torchrun's variables describe it, the SLURM job names it. */
    const char *env[] = {"SLURM_JOB_ID=77", "SLURM_PROCID=1", "SLURM_LOCALID=0", "SLURM_NODEID=1",
                         "SLURM_NTASKS=2", "RANK=7", "LOCAL_RANK=3", "GROUP_RANK=1", "WORLD_SIZE=8",
                         "LOCAL_WORLD_SIZE=4", "TORCHELASTIC_RUN_ID=77", "CUDA_VISIBLE_DEVICES=0,1,2,3",
                         NULL};
    struct launcher_info i = detect(env);
    assert_int_equal(i.rank, 7);
    assert_int_equal(i.local_rank, 3);
    assert_int_equal(i.world_size, 8);
    assert_string_equal(i.job_id, "slurm:77");
    assert_int_equal(i.gpu, 3);
    /* mpirun inside an sbatch allocation */
    const char *mpi[] = {"SLURM_JOB_ID=9", "SLURM_PROCID=0", "SLURM_NTASKS=1", "OMPI_COMM_WORLD_RANK=5",
                         "OMPI_COMM_WORLD_SIZE=16", NULL};
    i = detect(mpi);
    assert_int_equal(i.rank, 5);
    assert_int_equal(i.world_size, 16);
}

static void test_garbage_and_single(void **state)
{
    (void)state;
    const char *bad[] = {"RANK=-1", "OMPI_COMM_WORLD_RANK=2x", "PMI_RANK= 3", "SLURM_PROCID=4",
                         "WORLD_SIZE=99999999999", "SLURM_NTASKS=6", "TORCHELASTIC_RUN_ID=none", NULL};
    struct launcher_info i = detect(bad);
    assert_int_equal(i.rank, 4);
    assert_string_equal(i.rank_from, "SLURM_PROCID");
    assert_int_equal(i.world_size, 6);
    assert_string_equal(i.job_id, ""); /* "none" is torchrun's default, not an id */
    /* one task of a batch script is not a rank of a job */
    const char *one[] = {"SLURM_JOB_ID=1", "SLURM_PROCID=0", "SLURM_NTASKS=1", NULL};
    i = detect(one);
    assert_false(launcher_is_rank(&i));
    const char *none[] = {NULL};
    i = detect(none);
    assert_int_equal(i.rank, -1);
    assert_int_equal(i.gpu, -1);
    assert_false(launcher_is_rank(&i));
    char long_id[200] = "SLURM_JOB_ID=";
    memset(long_id + 13, '7', 150);
    const char *huge[] = {long_id, "RANK=1", "WORLD_SIZE=2", NULL};
    i = detect(huge);
    assert_string_equal(i.job_id, "");
}

static void test_gpu(void **state)
{
    (void)state;
    const char *why;
    assert_int_equal(launcher_gpu(NULL, 2, &why), 2);
    assert_int_equal(launcher_gpu("5", 2, &why), 5);
    assert_int_equal(launcher_gpu("4,5,6,7", 2, &why), 6);
    assert_int_equal(launcher_gpu("4,5", 2, &why), -1);
    assert_string_equal(why, "LOCAL_RANK is past the end of CUDA_VISIBLE_DEVICES");
    assert_int_equal(launcher_gpu("0,1", -1, &why), -1);
    assert_int_equal(launcher_gpu("GPU-8f6c2d1e-5a3b-4c7d-9e0f-112233445566", 0, &why), -1);
    assert_string_equal(why, "CUDA_VISIBLE_DEVICES names GPUs by UUID or MIG id");
    assert_int_equal(launcher_gpu("", 0, &why), -1);
    assert_int_equal(launcher_gpu("0,,1", 0, &why), -1);
    assert_int_equal(launcher_gpu("0,64", 0, &why), -1);
    assert_int_equal(launcher_gpu(NULL, 70, &why), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_torchrun), cmocka_unit_test(test_slurm),
        cmocka_unit_test(test_mpi),      cmocka_unit_test(test_nested),
        cmocka_unit_test(test_garbage_and_single), cmocka_unit_test(test_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
