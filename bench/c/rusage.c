/* Runs a command and writes, to the file given first, its peak resident
 * memory and CPU time: "maxrss_kb user_seconds system_seconds", the CPU
 * times to the microsecond (GNU time's %U and %S round to 10 ms, a sixth
 * of a count of N = 16). The command's own exit status is returned.
 * Build: cc -O2 -o rusage rusage.c    Run: ./rusage FILE COMMAND [ARG ...] */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: rusage FILE COMMAND [ARG ...]\n");
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("rusage: fork");
        return 1;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("rusage: exec");
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) {
        perror("rusage: wait4");
        return 1;
    }
    FILE *f = fopen(argv[1], "w");
    if (f == NULL) {
        perror("rusage: open");
        return 1;
    }
    fprintf(f, "%ld %ld.%06ld %ld.%06ld\n", ru.ru_maxrss, (long)ru.ru_utime.tv_sec, (long)ru.ru_utime.tv_usec,
            (long)ru.ru_stime.tv_sec, (long)ru.ru_stime.tv_usec);
    if (fclose(f) != 0) {
        perror("rusage: close");
        return 1;
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + WTERMSIG(status);
}
