/*
 * esc.h - text from outside (a file name, a name given on the command
 * line) made safe to print on a terminal in an error message: control
 * bytes, DEL, C1 controls and bytes that are not UTF-8 as \xNN, so a file
 * name cannot move the cursor, clear the screen or forge a line.
 */
#ifndef UTIL_ESC_H
#define UTIL_ESC_H

/* s escaped, in one of 4 buffers of this thread used in turn (so up to 4
 * may appear in one message); cut with "..." past about 1000 bytes. NULL
 * gives "(null)". */
const char *gc_esc(const char *s);

#endif
