/* protobuf-net's bcl.proto bodies (bcl.DateTime, TimeSpan, Decimal, Guid), see bcl.c. */
#ifndef PROTOATTR_BCL_H
#define PROTOATTR_BCL_H

#include "timefmt.h"
#include "plan.h"

/* Write `v` as the length-delimited body of bcl kind `kind` (tag already written):
 * 1 done, 0 not taken (the Python helper decides), -1 error. */
int bcl_encode(PyDateTime_CAPI *api, const ValueSpec *vs, PyObject *v, Buf *b);

/* The value of the body [p, end); *taken = 0 when the Python helper must decide. */
PyObject *bcl_decode(PyDateTime_CAPI *api, const ValueSpec *vs, const unsigned char *p,
                     const unsigned char *end, int *taken);

/* DataFormat.FixedSize (convert.c): the ticks of an exact naive/UTC datetime (from 1970)
 * or timedelta, 1 taken / 0 not; and back: a new reference, or NULL (no exception set)
 * when Python must decide. */
int bcl_ticks_of(PyDateTime_CAPI *api, int is_datetime, PyObject *v, int64_t *ticks);
PyObject *bcl_of_ticks(PyDateTime_CAPI *api, int is_datetime, int64_t ticks);

/* K_BCL_DECIMAL / K_BCL_GUID: the classes (and UUID's slots) the engine builds. */
int bcl_setup(ValueSpec *v);

#endif
