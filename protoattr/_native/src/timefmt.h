/* Timestamp/Duration bodies (see timefmt.c). */
#ifndef PROTOATTR_TIMEFMT_H
#define PROTOATTR_TIMEFMT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <datetime.h>
#include "buffer.h"

/* datetime.h defines a static PyDateTimeAPI; the engine keeps the capsule in its
 * module state instead, so this only silences "defined but not used". */
static inline void *timefmt_unused_capi(void) { return PyDateTimeAPI; }

/* Write `v` as a length-delimited body (tag already written): 1 done, 0 not taken, -1 error. */
int time_encode(PyDateTime_CAPI *api, int kind_is_timestamp, PyObject *v, Buf *b);

/* The value of the body [p, end); *taken = 0 when the Python helper must decide. */
PyObject *time_decode(PyDateTime_CAPI *api, int kind_is_timestamp, const unsigned char *p,
                      const unsigned char *end, int *taken);

/* Days since 1970-01-01 of a proleptic Gregorian date, and back (also used by convert.c). */
int64_t days_from_civil(int64_t y, int64_t m, int64_t d);
void civil_from_days(int64_t z, int *year, int *month, int *day);
/* The UTC date and the second of that day of `seconds` since the epoch (any sign). */
void civil_from_seconds(int64_t seconds, int *year, int *month, int *day, int *second_of_day);

#endif
