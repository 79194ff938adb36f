/*
 * agentdesk-sandbox: the re-exec that confines one child of AgentDesk.
 *
 * AgentDesk (agent/childproc) decides the policy and builds the Landlock
 * ruleset itself; this program only enforces it on itself and becomes the
 * child, so the app's own process is never restricted. It exists because
 * re-executing the app's binary to do the same costs a Go runtime start
 * and, for the GUI binary, loading its X11 and GL libraries: 10 to 20 ms
 * a child, where this costs one small exec (BENCHMARKS.md, row 10).
 * When it is missing, childproc re-executes its own binary instead
 * (ExecCommand), which does exactly what this does.
 *
 * Usage: agentdesk-sandbox FLAGS PROGRAM ARGV0 [ARG...]
 *   fd 3  the status pipe: on failure it gets "errno N" or a sentence;
 *         a successful exec closes it (close-on-exec)
 *   fd 4  the Landlock ruleset; FLAGS are landlock_restrict_self's flags
 * The environment is passed to PROGRAM unchanged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_landlock_restrict_self
#define __NR_landlock_restrict_self 446 /* the same number on every architecture */
#endif

enum { status_fd = 3, ruleset_fd = 4 };

extern char **environ;

static int fail(const char *what, int err) {
	dprintf(status_fd, "%s: %s", what, strerror(err));
	return 127;
}

int main(int argc, char **argv) {
	if (fcntl(status_fd, F_SETFD, FD_CLOEXEC) != 0) {
		return 127; /* not started by AgentDesk: nobody to tell */
	}
	if (argc < 4) {
		dprintf(status_fd, "usage: agentdesk-sandbox FLAGS PROGRAM ARGV0 [ARG...]");
		return 127;
	}
	char *end;
	errno = 0;
	unsigned long flags = strtoul(argv[1], &end, 10);
	if (errno != 0 || *argv[1] == '\0' || *end != '\0' || flags > 0xffffffffUL) {
		dprintf(status_fd, "bad ruleset flags %s", argv[1]);
		return 127;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		return fail("no_new_privs", errno);
	}
	if (syscall(__NR_landlock_restrict_self, ruleset_fd, (unsigned int)flags) != 0) {
		return fail("apply the Landlock ruleset", errno);
	}
	close(ruleset_fd);
	execve(argv[2], argv + 3, environ);
	dprintf(status_fd, "errno %d", errno);
	return 127;
}
