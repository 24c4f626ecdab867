/* The fake of newlib's <reent.h> for the host harness. */
#ifndef FAKE_REENT_H
#define FAKE_REENT_H
struct _reent;
#define _REENT ((struct _reent *)0)
#endif
