/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Private: the one rule by which every trajectory reader (dvicert check,
 * src/io/traj_csv.c; enclose --from, src/io/traj_from.c) maps a header
 * name to a column: t; a state by its name in the problem or model
 * (state_names / states) or as x1..xn; an output by its name
 * (output_names) or as y1..ym. */
#ifndef DVC_IO_TRAJ_HEADER_H
#define DVC_IO_TRAJ_HEADER_H

/* "_" with allow_ignore: a column skipped (a --columns list) */
#define DVC_TRAJ_SLOT_IGNORED (-2)

/* Column name -> slot: 0 = t, 1..n = x (names[j-1], NULL: none, or xj),
 * n+1..n+m = y (ynames, or yj); DVC_TRAJ_SLOT_IGNORED for "_" when
 * allow_ignore; -1 for any other name. */
long dvc_traj_header_slot(const char *name, long n, long m, const char *const *names,
                          const char *const *ynames, int allow_ignore);

/* And the one rule of fields: the delimiter is ',' when the first line (not
 * blank, not a comment '#') has a comma, else runs of blanks and tabs; a
 * line is split in place (comma fields trimmed, "t ,x1" is t and x1), the
 * number of fields returned and the first max stored in f. */
char dvc_traj_delim(const char *line);
long dvc_traj_split(char *line, char **f, long max, char delim);
/* The fields dvc_traj_split would find (line unchanged). */
long dvc_traj_count(const char *line, char delim);
/* s without leading and trailing white space (cut in place). */
char *dvc_traj_trim(char *s);

#endif
