/*
** isolate.c: running NVRTC in a child process. NVRTC is a C++ front end
** inside the user's process, and some malformed input crashes it (issue 24:
** a template declaration cut off inside its parameter list, compiled with a
** name expression, is a SIGSEGV in libnvrtc). A compile in a forked child
** turns such a crash into an error: the child compiles, sends the image or
** NVRTC's log back through a pipe and exits; a child that dies sent an
** incomplete message, and the parent raises.
**
** Which compiles go to a child (GPUARRAY_NVRTC_ISOLATE, read once):
**   auto (default)  sources core/srccheck.c finds suspicious (invalid
**                   UTF-8, control bytes, an unterminated comment or
**                   literal, unbalanced brackets: NVRTC rejects nearly all
**                   of them anyway) and every compile with name
**                   expressions (NVRTC's lowering is where both crashes
**                   of issue 24 were)
**   always          every compile (a service compiling what strangers send)
**   never           none
** A fork costs one to three milliseconds here (docs/reliability.md has the
** numbers), against tens to hundreds of milliseconds for the compile; the
** caches mean each program pays it once.
**
** fork() in a threaded process copies only the calling thread: a lock
** another thread held stays locked in the child. The child calls nothing
** but NVRTC, malloc (glibc makes it fork-safe) and write; NVRTC's own locks
** are free because every in-process compile holds fork_lock for reading
** and the fork takes it for writing, and NVRTC is warmed up in process
** before the first fork (no dlopen in a child). The sanitizers' allocators
** (ASan's, TSan's) are not fork-safe this way: built with them, a child
** forked while other threads allocate can hang in malloc until its alarm
** (make host-soak-asan and -tsan run with GPUARRAY_NVRTC_ISOLATE=never;
** make host-soak soaks the forked path against the plain module). The child never returns into Lua or
** CUDA, and leaves with _exit (no atexit handlers: no CUDA teardown, no
** leak report of the parent's memory). A child stuck past CHILD_SECONDS is
** killed by its own alarm, and the parent raises.
*/
#define _GNU_SOURCE   /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compile/compile.h"

#define CHILD_SECONDS 300

static pthread_rwlock_t fork_lock = PTHREAD_RWLOCK_INITIALIZER;

/* ===================================================================== */
/* the policy                                                            */
/* ===================================================================== */

static pthread_once_t policy_once = PTHREAD_ONCE_INIT;
static int policy;   /* 0 auto, 1 always, 2 never */

static void policy_init(void) {
  const char *v = getenv("GPUARRAY_NVRTC_ISOLATE");
  policy = !v ? 0 : strcmp(v, "always") == 0 ? 1 : strcmp(v, "never") == 0 ? 2 : 0;
}

int ga_compile_isolated(const char *src, size_t srclen, int nnames, char *why, size_t cap) {
  pthread_once(&policy_once, policy_init);
  if (policy == 2) return 0;
  if (policy == 1) { snprintf(why, cap, "GPUARRAY_NVRTC_ISOLATE=always"); return 1; }
  if (ga_source_suspicious(src, srclen, why, cap)) return 1;
  if (nnames > 0) { snprintf(why, cap, "name expressions"); return 1; }
  return 0;
}

/* ===================================================================== */
/* in this process                                                       */
/* ===================================================================== */

int ga_nvrtc_here(const char *src, size_t srclen, int nall, const char *const *all, int ptx, int nnames,
                  const char *const *name_exprs, ga_image *out, ga_buf *err) {
  pthread_rwlock_rdlock(&fork_lock);
  int ok = ga_nvrtc_compile(src, srclen, nall, all, ptx, nnames, name_exprs, out, err);
  pthread_rwlock_unlock(&fork_lock);
  return ok;
}

/* ===================================================================== */
/* in a child                                                            */
/* ===================================================================== */

/* The child's message: a header, the payload, and an end mark (a message
** without its mark is a child that died while writing) */
typedef struct {
  char magic[4];            /* "GAok" or "GAer" */
  int32_t nnames, ptx;
  uint64_t names_len, image_len, err_len;
} msg_head;
static const char END_MARK[4] = {'G', 'A', 'e', 'n'};

static int write_all(int fd, const void *p, size_t n) {
  const char *c = (const char *)p;
  while (n) {
    ssize_t w = write(fd, c, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return 0;
    c += w;
    n -= (size_t)w;
  }
  return 1;
}

static void child(int fd, const char *src, size_t srclen, int nall, const char *const *all, int ptx, int nnames,
                  const char *const *name_exprs) {
  /* a crash here is the parent's to report: no handler of the host's (a
  ** crash reporter, a sanitizer) runs in the child, it just dies */
  static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGALRM};
  for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) signal(fatal[i], SIG_DFL);
  alarm(CHILD_SECONDS);
  ga_image img;
  ga_buf err;
  memset(&img, 0, sizeof img);
  ga_buf_init(&err);
  msg_head h;
  memset(&h, 0, sizeof h);
  int ok = ga_nvrtc_compile(src, srclen, nall, all, ptx, nnames, name_exprs, &img, &err);
  memcpy(h.magic, ok ? "GAok" : "GAer", 4);
  if (ok) {
    h.nnames = img.nnames;
    h.ptx = img.ptx;
    h.names_len = img.names_len;
    h.image_len = img.image_len;
  } else {
    h.err_len = err.len;
  }
  int sent = write_all(fd, &h, sizeof h) &&
             (ok ? write_all(fd, img.names, img.names_len) && write_all(fd, img.image, img.image_len)
                 : write_all(fd, err.s, err.len)) &&
             write_all(fd, END_MARK, sizeof END_MARK);
  _exit(sent ? 0 : 1);
}

/* Everything the child wrote, until it closes the pipe; NULL when out of
** memory */
static char *read_all(int fd, size_t *len) {
  size_t cap = 1 << 16, n = 0;
  char *b = (char *)malloc(cap);
  while (b) {
    if (n == cap) {
      char *nb = (char *)realloc(b, cap * 2);
      if (!nb) { free(b); b = NULL; break; }
      b = nb;
      cap *= 2;
    }
    ssize_t r = read(fd, b + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    n += (size_t)r;
  }
  *len = n;
  return b;
}

/* How the child ended, for the error: "signal 11 (Segmentation fault)" */
static void describe_end(pid_t pid, ga_buf *err) {
  int status = 0;
  pid_t w;
  do w = waitpid(pid, &status, 0); while (w < 0 && errno == EINTR);
  if (w < 0) ga_buf_add(err, "it ended without a word");   /* SIGCHLD ignored: reaped already */
  else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
    ga_buf_addf(err, "it ran past %d s and was stopped", CHILD_SECONDS);
  else if (WIFSIGNALED(status)) ga_buf_addf(err, "it died of signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
  else ga_buf_addf(err, "it exited with status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* A complete message into out or err; 0 when it is not one */
static int parse(const char *m, size_t n, ga_image *out, ga_buf *err, int *ok) {
  msg_head h;
  if (n < sizeof h + sizeof END_MARK || memcmp(m + n - sizeof END_MARK, END_MARK, sizeof END_MARK) != 0) return 0;
  memcpy(&h, m, sizeof h);
  size_t body = n - sizeof h - sizeof END_MARK;
  const char *p = m + sizeof h;
  if (memcmp(h.magic, "GAer", 4) == 0 && h.err_len == body) {
    ga_buf_addf(err, "%.*s", (int)body, p);
    *ok = 0;
    return 1;
  }
  if (memcmp(h.magic, "GAok", 4) != 0 || h.names_len > body || h.image_len != body - h.names_len) return 0;
  out->mem = (char *)malloc(body + 1);
  if (!out->mem) { ga_buf_add(err, "out of host memory"); *ok = 0; return 1; }
  memcpy(out->mem, p, body);
  out->mem[body] = '\0';
  *out = (ga_image){ out->mem, out->mem, (size_t)h.names_len, out->mem + h.names_len, (size_t)h.image_len,
                     h.nnames, h.ptx };
  *ok = 1;
  return 1;
}

/* NVRTC's first compile loads its builtins (dlopen) and sets up its state:
** done once here, in process, before the first fork, so that a child never
** needs the loader (another thread of the host may hold its lock while the
** child is made) and starts warm */
static pthread_once_t warm_once = PTHREAD_ONCE_INIT;

static void warm_nvrtc(void) {
  static const char src[] = "__global__ void ga_warm() {}";
  ga_image img;
  ga_buf err;
  memset(&img, 0, sizeof img);
  ga_buf_init(&err);
  if (ga_nvrtc_here(src, sizeof src - 1, 0, NULL, 0, 0, NULL, &img, &err)) free(img.mem);
  ga_buf_free(&err);
}

int ga_nvrtc_child(const char *src, size_t srclen, int nall, const char *const *all, int ptx, int nnames,
                   const char *const *name_exprs, ga_image *out, ga_buf *err) {
  pthread_once(&warm_once, warm_nvrtc);
  /* The pipe is made, and its write end closed here, under the lock: a
  ** child forked by another thread never holds it (the read would wait for
  ** that child too), and a process the host execs never does (O_CLOEXEC) */
  int fd[2];
  pthread_rwlock_wrlock(&fork_lock);
  if (pipe2(fd, O_CLOEXEC) != 0) {
    int e = errno;
    pthread_rwlock_unlock(&fork_lock);
    ga_buf_addf(err, "cannot compile in a child process: pipe: %s", strerror(e));
    return 0;
  }
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    child(fd[1], src, srclen, nall, all, ptx, nnames, name_exprs);
  }
  int fork_errno = errno;
  close(fd[1]);
  pthread_rwlock_unlock(&fork_lock);
  if (pid < 0) {
    close(fd[0]);
    ga_buf_addf(err, "cannot compile in a child process: fork: %s", strerror(fork_errno));
    return 0;
  }
  size_t n = 0;
  char *m = read_all(fd[0], &n);
  close(fd[0]);
  int ok = 0;
  if (!m) {
    ga_buf_add(err, "out of host memory");
    describe_end(pid, err);   /* reaps it */
    return 0;
  }
  if (parse(m, n, out, err, &ok)) {
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    free(m);
    return ok;
  }
  free(m);
  ga_buf_add(err, "NVRTC crashed compiling this source (in a child process, so this one lives on: ");
  describe_end(pid, err);
  ga_buf_add(err, ")");
  return 0;
}
