/*
 * Plugins that leave something behind in the process, for the host's tests, written from the public header
 * alone, one fault per FAKE_* macro (each a pass "FakePass" of plugin "fake" that then succeeds), each doing
 * nothing on a program named "innocent" (so that one file of a batch can trigger it). What they leave would
 * act later: each leftover writes "leftover ... still running" to stderr after 300 ms if it is still there.
 *   FAKE_LEAVES_THREAD        a thread left running
 *   FAKE_ARMS_ALARM           alarm(1) left armed (SIGALRM would end the process a second later)
 *   FAKE_ARMS_TIMER           a POSIX timer (timer_create) armed to send SIGALRM in a second
 *   FAKE_LEAVES_CHILD         a forked child left running
 *   FAKE_LEAVES_DAEMON        a grandchild in a session of its own (fork, setsid, fork; the middle one reaped)
 *   FAKE_BLOCKS_SIGNALS       SIGTERM and SIGCHLD left blocked
 *   FAKE_IGNORES_SIGCHLD      SIGCHLD set to SIG_IGN (children would be reaped behind the host's back)
 *   FAKE_DEFAULTS_SIGPIPE     SIGPIPE set to SIG_DFL (a closed output stream would kill the process)
 *   FAKE_CHANGES_GROUP        the process moved to another process group (its parent's, or one of its own)
 *   FAKE_WRITES_CHANNEL       64 bytes of junk written into every pipe from descriptor 3 up (the worker's
 *                             channel to pto-host among them), then 200 ms of sleep
 *   FAKE_ATEXIT_IN_CONSTRUCTOR a library constructor that registers an exit handler calling _exit(0), and a pass
 *                             that fails (PTO_ERR_INTERNAL): the handler would turn the failure into exit 0
 *   FAKE_THREAD_IN_CONSTRUCTOR a library constructor that starts a thread left running (and appends a byte to
 *                             the file named by $PTOPLUG_FAKE_LOADS, when set: one per load)
 *   FAKE_RECORDS_LOADS        a library constructor that appends "PID PPID" of the process loading it to the
 *                             file named by $PTOPLUG_FAKE_LOADS, and a pass that succeeds
 *   FAKE_KEEPS_STATE          memory kept from one file to the next: after a triggering run, every later run in
 *                             the same process renames the program's first function "tampered" and succeeds
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ptoplug/abi.h"

__attribute__((unused)) static void after_a_while(const char* what) {
    usleep(300 * 1000);
    fprintf(stderr, "leftover %s still running\n", what);
}

__attribute__((unused)) static void* linger(void* arg) {
    (void)arg;
    after_a_while("thread");
    pause();
    return NULL;
}

__attribute__((unused)) static void start_thread(void) {
    pthread_t t;
    if (pthread_create(&t, NULL, linger, NULL) != 0) abort();
    pthread_detach(t);
}

#if defined(FAKE_ATEXIT_IN_CONSTRUCTOR)
static void exit_zero(void) { _exit(0); }
__attribute__((constructor)) static void register_exit_handler(void) { atexit(exit_zero); }
#elif defined(FAKE_THREAD_IN_CONSTRUCTOR)
__attribute__((constructor)) static void thread_while_loading(void) {
    const char* loads = getenv("PTOPLUG_FAKE_LOADS");
    FILE* f = loads ? fopen(loads, "a") : NULL;
    if (f) {
        fputc('x', f);
        fclose(f);
    }
    start_thread();
}
#elif defined(FAKE_RECORDS_LOADS)
__attribute__((constructor)) static void record_load(void) {
    const char* loads = getenv("PTOPLUG_FAKE_LOADS");
    FILE* f = loads ? fopen(loads, "a") : NULL;
    if (f) {
        fprintf(f, "%ld %ld\n", (long)getpid(), (long)getppid());
        fclose(f);
    }
}
#endif

#if defined(FAKE_KEEPS_STATE)
static int saw_trigger; /* set by a triggering run, read by every later run in this process */
#endif

/* True unless the program is named "innocent". */
static int triggered(const pto_host_api* host, pto_run_context* ctx) {
    pto_node program;
    pto_string name;
    return host->program(ctx, &program) != PTO_OK || host->node_name(ctx, program, &name) != PTO_OK || name.size != 8 ||
           memcmp(name.data, "innocent", 8) != 0;
}

static pto_status run(const pto_host_api* host, pto_run_context* ctx) {
#if defined(FAKE_KEEPS_STATE)
    pto_node first;
    const pto_string tampered = {"tampered", 8};
    if (triggered(host, ctx)) {
        saw_trigger = 1;
        return PTO_OK;
    }
    if (!saw_trigger) return PTO_OK;
    if (host->program_function_at(ctx, 0, &first) != PTO_OK) return PTO_ERR_INTERNAL;
    return host->function_rename(ctx, first, tampered);
#endif
    if (!triggered(host, ctx)) return PTO_OK;
#if defined(FAKE_LEAVES_THREAD)
    start_thread();
#elif defined(FAKE_ARMS_ALARM)
    alarm(1);
#elif defined(FAKE_ARMS_TIMER)
    timer_t timer;
    struct sigevent event;
    struct itimerspec when;
    memset(&event, 0, sizeof event);
    memset(&when, 0, sizeof when);
    event.sigev_notify = SIGEV_SIGNAL;
    event.sigev_signo = SIGALRM;
    when.it_value.tv_sec = 1;
    if (timer_create(CLOCK_MONOTONIC, &event, &timer) != 0 || timer_settime(timer, 0, &when, NULL) != 0)
        return PTO_ERR_INTERNAL;
#elif defined(FAKE_LEAVES_CHILD)
    pid_t pid = fork();
    if (pid < 0) return PTO_ERR_INTERNAL;
    if (pid == 0) {
        after_a_while("child");
        _exit(0);
    }
#elif defined(FAKE_LEAVES_DAEMON)
    pid_t pid = fork();
    if (pid < 0) return PTO_ERR_INTERNAL;
    if (pid == 0) {
        setsid();
        if (fork() == 0) {
            after_a_while("daemon");
            _exit(0);
        }
        _exit(0);
    }
    waitpid(pid, NULL, 0);
#elif defined(FAKE_BLOCKS_SIGNALS)
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGCHLD);
    sigprocmask(SIG_BLOCK, &set, NULL);
#elif defined(FAKE_IGNORES_SIGCHLD)
    signal(SIGCHLD, SIG_IGN);
#elif defined(FAKE_DEFAULTS_SIGPIPE)
    signal(SIGPIPE, SIG_DFL);
#elif defined(FAKE_CHANGES_GROUP)
    /* Out of the group it leads into its parent's, else into one of its own. */
    if (setpgid(0, getpgrp() == getpid() ? getpgid(getppid()) : 0) != 0) return PTO_ERR_INTERNAL;
#elif defined(FAKE_ATEXIT_IN_CONSTRUCTOR)
    return PTO_ERR_INTERNAL;
#elif defined(FAKE_WRITES_CHANNEL)
    char junk[64];
    memset(junk, 'j', sizeof junk);
    for (int fd = 3; fd < 64; ++fd) {
        struct stat st;
        if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) (void)!write(fd, junk, sizeof junk);
    }
    usleep(200 * 1000);
#endif
    return PTO_OK;
}

static const pto_pass_desc pass = {.struct_size = sizeof(pto_pass_desc),
                                   .name = "FakePass",
                                   .description = "a pass that leaves something behind",
                                   .run = run};
static const pto_pass_desc* const passes[] = {&pass};

static const pto_plugin_desc plugin = {.struct_size = sizeof(pto_plugin_desc),
                                       .abi_major = PTO_ABI_MAJOR,
                                       .abi_minor_min = 0,
                                       .abi_minor_max = PTO_ABI_MINOR,
                                       .name = "fake",
                                       .version = "0.0.1",
                                       .passes = passes,
                                       .pass_count = 1};

PTO_PLUGIN_EXPORT const pto_plugin_desc* ptoplug_plugin_entry(uint32_t major, uint32_t minor) {
    (void)major;
    (void)minor;
    return &plugin;
}
