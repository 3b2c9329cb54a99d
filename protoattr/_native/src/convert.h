/* Converted types and surrogates: values that travel as another wire kind.
 *
 * The plan gives each such value its converters (the very functions the
 * generated Python codec calls) and, for the types protoattr knows, a code
 * that lets the engine take a shortcut that is clearly identical (str() of an
 * exact Decimal, the day number of an exact date, bytearray(bytes)).  Any
 * failure returns NULL: the entry point then runs the Python codec, which
 * gives the exact error.
 */
#ifndef PROTOATTR_CONVERT_H
#define PROTOATTR_CONVERT_H

#include "plan.h"

/* The numbering is shared with plan.py (CONV_* there). */
enum {
    CONV_NONE = 0,
    CONV_CALL = 1,        /* to_wire(value) / from_wire(value): surrogates, wrappers, ... */
    CONV_FLAG = 2,        /* IntFlag: from_wire(n) for n >= 0, a negative n stays an int */
    CONV_BYTEARRAY = 3,   /* bytes -> bytearray (encode takes bytes and bytearray as is) */
    CONV_DECIMAL = 4,     /* str(Decimal) / Decimal(str) */
    CONV_UUID_STR = 5,    /* str(UUID) / UUID(str) */
    CONV_UUID_BYTES = 6,  /* UUID.bytes / UUID(bytes=...) */
    CONV_DATE = 7,        /* date <-> its day number since 0001-01-01 (an int32) */
    CONV_DATETIME_TICKS = 8, /* datetime <-> fixed64 ticks from 1970 (bcl.c) */
    CONV_TIMESPAN_TICKS = 9, /* timedelta <-> fixed64 ticks (bcl.c) */
    CONV_LAST
};

/* Read (conv, to_wire, from_wire, domain) at spec[at..at+3] into `v`. */
int convert_setup(ValueSpec *v, PyObject *spec, Py_ssize_t at);
void convert_clear(ValueSpec *v);
int convert_traverse(ValueSpec *v, visitproc visit, void *arg);

/* uuid.UUID's class and slots in v->conv_aux (also for bcl.Guid); the UUID of
 * 16 big-endian bytes; the 16 bytes of an exact UUID (1) or 0: not taken. */
int convert_uuid_setup(ValueSpec *v);
PyObject *convert_uuid_from_16(const ValueSpec *vs, const unsigned char *b16);
int convert_uuid_bytes(const ValueSpec *vs, PyObject *u, unsigned char *b16);

/* Whether encode converts values of `vs` before writing them. */
static inline int convert_encodes(const ValueSpec *vs) {
    return vs->to_wire != NULL;
}

/* The wire form of the user's value `v` (new reference), NULL on failure. */
PyObject *convert_to_wire(EngineState *st, const ValueSpec *vs, PyObject *v);

/* The user's value of the wire value `x` (stolen; may be NULL, then NULL). */
PyObject *convert_from_wire(EngineState *st, const ValueSpec *vs, PyObject *x);

#endif
