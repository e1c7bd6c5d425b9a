/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* The message convention of error.h (each place once, no module names) and
 * the input/output file rules of files.h, through the library API. */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "dvicert/dvicert.h"

static void test_messages(void)
{
    /* module names are not places */
    dvc_error(DVC_ERR_INPUT, "dlvi: x0 must be finite");
    CHECK(strcmp(dvc_error_message(), "x0 must be finite") == 0, "%s", dvc_error_message());
    dvc_error(DVC_NOT_CERTIFIED, "lvi: M is not proven to be a P-matrix");
    dvc_error_context(DVC_NOT_CERTIFIED, "dlvi: M: ");
    dvc_error_context(DVC_NOT_CERTIFIED, "p.json: ");
    CHECK(strcmp(dvc_error_message(), "p.json: M is not proven to be a P-matrix") == 0, "%s",
          dvc_error_message());
    /* a place already named further in is not repeated, nor "FILE" before "FILE:LINE" */
    dvc_error(DVC_ERR_INPUT, "p.json: field 'f' entry 1:2: time 'x' is not a number");
    dvc_error_context(DVC_ERR_INPUT, "p.json: field 'f' entry 1: ");
    CHECK(strcmp(dvc_error_message(), "p.json: field 'f' entry 1:2: time 'x' is not a number") == 0, "%s",
          dvc_error_message());
    dvc_error(DVC_ERR_INPUT, "p.json: missing field 'T'");
    dvc_error_context(DVC_ERR_INPUT, "p.json: ");
    CHECK(strcmp(dvc_error_message(), "p.json: missing field 'T'") == 0, "%s", dvc_error_message());
    /* new places are kept, in order, and the reason always */
    dvc_error(DVC_ERR_INPUT, "not a number");
    dvc_error_context(DVC_ERR_INPUT, "row 2: ");
    dvc_error_context(DVC_ERR_INPUT, "p.json: field 'M': ");
    CHECK(strcmp(dvc_error_message(), "p.json: field 'M': row 2: not a number") == 0, "%s", dvc_error_message());
    dvc_error(DVC_ERR_INPUT, "lvi");
    CHECK(strcmp(dvc_error_message(), "lvi") == 0, "a reason is never dropped: %s", dvc_error_message());
    dvc_error(DVC_ERR_INPUT, "step 3: %s", "x: 0.5: out of range");
    CHECK(strcmp(dvc_error_message(), "step 3: x: 0.5: out of range") == 0, "%s", dvc_error_message());
}

/* entries of dir other than "." and ".." */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d) return -1;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) n++;
    closedir(d);
    return n;
}

static void test_files(void)
{
    char dir[] = "/tmp/dvc_test_files.XXXXXX", path[256], in[256], lnk[256], buf[64] = {0};
    const char *inputs[1];
    dvc_outfile o;
    FILE *f;
    struct stat sb;
    REQUIRE(mkdtemp(dir) != NULL, "mkdtemp");
    snprintf(path, sizeof path, "%s/out.txt", dir);
    snprintf(in, sizeof in, "%s/in.txt", dir);
    snprintf(lnk, sizeof lnk, "%s/link.txt", dir);

    /* a directory is not an input file */
    CHECK(dvc_infile_open(&f, dir, "rb") == DVC_ERR_INPUT && f == NULL &&
          strstr(dvc_error_message(), "is a directory"), "%s", dvc_error_message());
    CHECK(dvc_infile_open(&f, "/no/such/file", "rb") == DVC_ERR_IO && strstr(dvc_error_message(), "cannot open"),
          "%s", dvc_error_message());

    /* cleared without commit: nothing at the path, no temporary left */
    CHECK(dvc_outfile_open(&o, path) == DVC_OK && o.tmp != NULL, "open");
    fputs("partial", o.f);
    dvc_outfile_clear(&o);
    CHECK(access(path, F_OK) != 0 && entries(dir) == 0, "abandoned output left %d entries", entries(dir));

    /* what a signal handler does: the temporary file goes */
    CHECK(dvc_outfile_open(&o, path) == DVC_OK && entries(dir) == 1, "open");
    dvc_outfile_remove_temporaries();
    CHECK(entries(dir) == 0, "temporary file left after dvc_outfile_remove_temporaries");
    dvc_outfile_clear(&o);

    /* committed: the contents at the path, a regular file, nothing else */
    CHECK(dvc_outfile_open(&o, path) == DVC_OK, "open");
    fputs("hello", o.f);
    CHECK(dvc_outfile_commit(&o) == DVC_OK, "commit: %s", dvc_error_message());
    dvc_outfile_clear(&o);
    f = fopen(path, "r");
    CHECK(f && fread(buf, 1, sizeof buf - 1, f) == 5 && strcmp(buf, "hello") == 0, "content '%s'", buf);
    if (f) fclose(f);
    CHECK(lstat(path, &sb) == 0 && S_ISREG(sb.st_mode) && entries(dir) == 1, "one regular file");

    /* the same file as an input, by another name: refused */
    CHECK(link(path, in) == 0, "hard link");
    inputs[0] = in;
    CHECK(dvc_outfile_check(path, inputs, 1) == DVC_ERR_INPUT && strstr(dvc_error_message(), "same file"),
          "%s", dvc_error_message());
    CHECK(dvc_outfile_check(path, NULL, 0) == DVC_OK, "no inputs: %s", dvc_error_message());
    /* remembered inputs: refused by open while tracking is on */
    dvc_infile_track(1);
    CHECK(dvc_infile_open(&f, in, "rb") == DVC_OK, "open input");
    if (f) fclose(f);
    CHECK(dvc_outfile_open(&o, path) == DVC_ERR_INPUT && strstr(dvc_error_message(), "in.txt"),
          "a remembered input refused: %s", dvc_error_message());
    dvc_outfile_clear(&o);
    dvc_infile_track(0);
    CHECK(dvc_outfile_open(&o, path) == DVC_OK, "tracking off: %s", dvc_error_message());
    dvc_outfile_clear(&o);
    unlink(in);

    /* symbolic links: refused by check, open and the one-call writer */
    CHECK(symlink("out.txt", lnk) == 0, "symlink");
    CHECK(dvc_outfile_check(lnk, NULL, 0) == DVC_ERR_INPUT && strstr(dvc_error_message(), "symbolic link"),
          "%s", dvc_error_message());
    CHECK(dvc_write_atomic(lnk, "x", 1) == DVC_ERR_INPUT, "write through a link refused");
    CHECK(lstat(lnk, &sb) == 0 && S_ISLNK(sb.st_mode), "the link is still a link");
    unlink(lnk);
    CHECK(symlink("/dev/null", lnk) == 0, "symlink to /dev/null");
    CHECK(dvc_write_atomic(lnk, "x", 1) == DVC_OK, "write through a link to a device: %s", dvc_error_message());
    unlink(lnk);

    /* a device is written directly, never replaced */
    CHECK(dvc_outfile_open(&o, "/dev/null") == DVC_OK && o.tmp == NULL, "direct output");
    CHECK(dvc_outfile_commit(&o) == DVC_OK, "commit /dev/null");
    dvc_outfile_clear(&o);
    CHECK(stat("/dev/null", &sb) == 0 && S_ISCHR(sb.st_mode), "/dev/null still a device");
    CHECK(dvc_outfile_check(dir, NULL, 0) == DVC_ERR_INPUT && strstr(dvc_error_message(), "is a directory"),
          "%s", dvc_error_message());

    unlink(path);
    CHECK(entries(dir) == 0, "scratch directory empty");
    rmdir(dir);
}

int main(void)
{
    test_messages();
    test_files();
    return check_report();
}
