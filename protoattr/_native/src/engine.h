/* The engine's internal interface: what decode.c, encode.c and hier.c share.
 *
 * hier.c runs inheritance hierarchies (several levels, each a nested message
 * in its parent), merges into an existing object (a base) and groups; it
 * reuses the per-field readers and writers of decode.c and encode.c through
 * the declarations below.
 */
#ifndef PROTOATTR_ENGINE_H
#define PROTOATTR_ENGINE_H

#include "plan.h"
#include "buffer.h"

typedef struct {
    EngineState *st;
    PyObject *bufobj;              /* the bytes object (helpers and callbacks take it) */
    const unsigned char *base;     /* its first byte: positions are offsets from here */
    Py_ssize_t max_depth;          /* the model's (every plan of a model has the same) */
    int64_t budget;                /* messages this decode may still build (budget.h) */
    const struct Plan *bounded;    /* the plan carrying the model's max_messages, or NULL */
    int nested;                    /* called from Python: the count continues BUDGET.left */
    struct Pending *pend;          /* the innermost fresh decode_message's (decode.c), or NULL */
    Py_ssize_t merges;             /* Merged values made so far (hier.c): builds look for them */
} Ctx;

/* The unknown fields of one message (or one hierarchy level): rare, so nothing
 * on the stack and one heap block when there are any. */
typedef struct {
    char *data;
    Py_ssize_t len;
    Py_ssize_t cap;
} Unknown;

/* The kind number plan.py sends for a message field written as a group (it
 * becomes K_MESSAGE with wire type WT_SGROUP; not a K_* enum member). */
#define K_GROUP_SPEC 64

/* A small function on the hot path, inlined where it is called (a plain `static
 * inline` is only a hint, which gcc did not take for these at -O2). */
#if defined(__GNUC__) || defined(__clang__)
#define ENGINE_INLINE static inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define ENGINE_INLINE static __forceinline
#else
#define ENGINE_INLINE static inline
#endif

/* plan.c */
Py_ssize_t *plan_index_array(PyObject *seq, Py_ssize_t limit, Py_ssize_t *count);

/* decode.c */
PyObject *decode_message(Ctx *c, Plan *plan, const unsigned char *p, const unsigned char *end,
                         Py_ssize_t depth);
int read_field(Ctx *c, const Field *f, int wt, const unsigned char **p,
               const unsigned char *end, Py_ssize_t depth, PyObject **slot);
int skip_value(Ctx *c, uint64_t tag, const unsigned char **p, const unsigned char *end,
               Py_ssize_t depth);
int unknown_add(Unknown *u, const unsigned char *src, Py_ssize_t n);
int store_unknown(PyObject *set_unknown, PyObject *obj, PyObject *key, const Unknown *u);
int fill_absent(Ctx *c, const Field *f, PyObject **slot, Py_ssize_t depth);
/* The object of `plan` from the complete field values `vals` (borrowed): the plan's
 * constructor call, then the fields set after it; the binary and JSON readers share it. */
PyObject *construct_object(EngineState *st, Plan *plan, PyObject **vals);

/* encode.c */
int encode_message(EngineState *st, Plan *plan, PyObject *obj, Buf *b, int depth);
int encode_field(EngineState *st, const Field *f, PyObject *v, Buf *b, int depth);
PyObject *encode_callback(EngineState *st, const ValueSpec *vs, PyObject *v);
int unknown_of(EngineState *st, PyObject *obj, PyObject *dict, int in_dict,
               PyObject *get_unknown, PyObject *key, PyObject **out);

/* hier.c: hierarchies and merges */
int hier_setup(Plan *plan, PyObject *spec);
void hier_free(Plan *plan);
int hier_traverse(Plan *plan, visitproc visit, void *arg);
int hier_encode(EngineState *st, Plan *plan, PyObject *obj, Buf *b, int depth);
PyObject *hier_decode(Ctx *c, Plan *plan, const unsigned char *p, const unsigned char *end,
                      Py_ssize_t depth, PyObject *base);
/* A singular message field seen again (or holding a base's value): merged into it. */
int merge_field(Ctx *c, const Field *f, const unsigned char **p, const unsigned char *end,
                Py_ssize_t depth, PyObject **slot);
/* Whether a later occurrence of `f` (a singular message or group the engine runs)
 * merges into a Merged rather than building the class anew (hier.c). */
int takes_merged(const Field *f);
/* The message (or group body) [p, e) at `depth`, merged into *slot: its earlier value,
 * which becomes (or already is) a Merged.  0, or -1. */
int merge_later(Ctx *c, const ValueSpec *vs, const unsigned char *p, const unsigned char *e,
                Py_ssize_t depth, PyObject **slot);
/* A slot holding the values merged so far (see hier.c's Merged), not built yet. */
int is_merged(PyObject *v);
/* Build the Merged in *slot, if it holds one, into its object: 0, or -1. */
int merged_finish_slot(Ctx *c, PyObject **slot);

/* groups.c */
int skip_group(Ctx *c, uint32_t number, const unsigned char **p, const unsigned char *end,
               Py_ssize_t depth);
int read_group_field(Ctx *c, const Field *f, int wt, const unsigned char **p,
                     const unsigned char *end, Py_ssize_t depth, PyObject **slot);
int write_group(EngineState *st, const ValueSpec *vs, const unsigned char *tag, int taglen,
                PyObject *v, Buf *b, int depth);

/* A nested message at [p, e): decoded fresh, or merged into `base` (then it must
 * still be an instance of the field's class, as _runtime.of_subtype checks). */
PyObject *decode_sub(Ctx *c, const ValueSpec *vs, const unsigned char *p, const unsigned char *e,
                     Py_ssize_t depth, PyObject *base);

/* One level of a hierarchy (a flat contract has one, its own). */
typedef struct {
    PyObject *cls;
    Py_ssize_t parent;             /* -1 for the root */
    unsigned char tag[5];          /* this level's subtype field in its parent (LEN) */
    int taglen;
    uint32_t number;
    Py_ssize_t nslots;
    Py_ssize_t *slots;             /* this level's own fields: indices into plan->fields */
    Py_ssize_t nchildren;
    Py_ssize_t *children;          /* level indices */
    int16_t by_number[33];         /* 1..32: slot (>= 0), child level (-2 - k), none (-1) */
    PyObject *unknown_key;         /* NULL: this level keeps no unknown fields */
    int unknown_in_dict;
    int use_dict;                  /* an instance of exactly cls: fields read from __dict__ */
    int in_subtree;                /* a descendant of the requested class (encode dispatch) */
    /* building this level's class (the generated decoder's call, as in plan.c) */
    int construct_new;
    PyObject *ctor;
    Py_ssize_t ncall;
    Py_ssize_t npositional;
    Py_ssize_t *call;
    PyObject *kwnames;
    Py_ssize_t nlate;
    Py_ssize_t *late;
} Level;

/* Every level of a plan's hierarchy: the root first, then the descendants depth first. */
typedef struct Hier {
    Py_ssize_t nlevels;
    Py_ssize_t requested;          /* the plan's own class */
    Level *levels;
    PyObject *get_unknown;
    PyObject *set_unknown;
} Hier;

/* An int value (an int or a subclass) as int64 within [lo, hi]; -1 (maybe with an
 * exception) otherwise.  encode.c's, and json_write.c's for exact ints. */
static inline int get_signed(PyObject *v, int64_t lo, int64_t hi, int64_t *out) {
    if (!PyLong_Check(v)) {
        return -1;
    }
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow || (x == -1 && PyErr_Occurred()) || x < lo || x > hi) {
        return -1;
    }
    *out = (int64_t)x;
    return 0;
}

static inline int get_unsigned(PyObject *v, uint64_t hi, uint64_t *out) {
    if (!PyLong_Check(v)) {
        return -1;
    }
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    if ((x == (unsigned long long)-1 && PyErr_Occurred()) || x > hi) {
        return -1;
    }
    *out = (uint64_t)x;
    return 0;
}

/* An exact float, or an exact int as float(v) makes it (encode.c, json_write.c). */
static inline int get_double(PyObject *v, double *out) {
    if (PyFloat_CheckExact(v)) {
        *out = PyFloat_AS_DOUBLE(v);
        return 0;
    }
    if (PyLong_CheckExact(v)) {
        double d = PyLong_AsDouble(v);
        if (d == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        *out = d;
        return 0;
    }
    return -1;
}

/* A plan runs several levels (a hierarchy) rather than one flat message. */
static inline int hier_is_multi(const Plan *plan) {
    return plan->hier != NULL && plan->hier->nlevels > 1;
}

#endif
