/* Plans: the per-class field tables the engine executes.
 *
 * A plan is built in Python (protoattr/_native/plan.py) from the resolved
 * contract and handed over as plain tuples; Plan.setup() copies it into the
 * C structs below.  The engine knows wire formats, not Python typing: every
 * decision that needs typing (defaults, presence, constructor arguments,
 * enum tables) was made when the plan was built.
 */
#ifndef PROTOATTR_PLAN_H
#define PROTOATTR_PLAN_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* Value kinds: the numbering is shared with plan.py (KINDS there). */
enum {
    K_INT32 = 1, K_INT64, K_UINT32, K_UINT64, K_SINT32, K_SINT64,
    K_FIXED32, K_FIXED64, K_SFIXED32, K_SFIXED64, K_BOOL, K_ENUM,
    K_FLOAT, K_DOUBLE, K_STRING, K_BYTES, K_MESSAGE, K_TIMESTAMP, K_DURATION,
    K_BCL_DATETIME, K_BCL_TIMESPAN, K_BCL_DECIMAL, K_BCL_GUID, /* bcl.c */
    K_LAST
};

static inline int is_bcl_kind(int kind) {
    return kind >= K_BCL_DATETIME && kind <= K_BCL_GUID;
}

enum { L_SINGULAR = 0, L_OPTIONAL = 1, L_REPEATED = 2, L_MAP = 3 };

/* How encode decides whether a singular field is written. */
/* ENC_PRESENT_NOT_NONE: written unless None, and None is refused (a non-Optional
 * message/time field whose default is not None: absent reads back as a value) */
enum { ENC_DEFAULT = 0, ENC_PRESENT = 1, ENC_ALWAYS = 2, ENC_PRESENT_NOT_NONE = 3 };

/* A field's value before decoding, and what an absent field becomes. */
enum { INIT_NULL = 0, INIT_VALUE = 1, INIT_LIST = 2, INIT_DICT = 3 };
enum { ABSENT_NONE = 0, ABSENT_REQUIRED = 1, ABSENT_FACTORY = 2, ABSENT_EMPTY = 3, ABSENT_VALUE = 4 };

/* The depth at which the engine stops recursing and lets Python decide
 * (Python's own max_depth check, or its recursion limit, gives the error). */
#define NATIVE_MAX_DEPTH 1000

typedef struct {
    int kind;
    int wire_type;
    PyObject *sub;            /* MESSAGE: a Plan (native) or a Codec (called back) */
    int sub_native;
    PyObject *enum_members;   /* ENUM: {number: member}, or NULL */
    int enum_plain;           /* ENUM: not an int subclass: encode reads .value */
    int closed;               /* ENUM: closed, unknown numbers are not values;
                                 BCL_DATETIME: write the kind (IncludeDateTimeKind) */
    PyObject *helper_encode;  /* TIMESTAMP/DURATION/BCL_*: value -> body bytes */
    PyObject *helper_decode;  /* TIMESTAMP/DURATION: (buf, pos, end, previous) -> value;
                                 BCL_*: (buf, pos, end, depth, max_depth) -> value */
    PyObject *zero;           /* the value of a map entry without this part */
    /* converted types and surrogates (convert.c): the value travels as `kind` */
    int conv;                 /* CONV_*: 0 = none */
    PyObject *to_wire;        /* the user's value -> the wire kind's value, or NULL */
    PyObject *from_wire;      /* the wire kind's value -> the user's value, or NULL */
    PyObject *domain;         /* the user's type (Decimal, UUID, ...), or NULL */
    PyObject *conv_aux;       /* UUID as bytes: the keyword names ("bytes",) */
} ValueSpec;

typedef struct {
    PyObject *name;           /* attribute name (interned str) */
    uint32_t number;
    int label;
    int packed;
    ValueSpec value;
    ValueSpec key;            /* MAP keys */
    unsigned char tag[5];     /* the tag of one value of this field */
    int taglen;
    unsigned char len_tag[5]; /* the tag with wire type LEN (packed, maps) */
    int len_taglen;
    /* encode: singular fields */
    int enc_mode;
    int has_int_default;
    int64_t def_i;            /* signed kinds */
    uint64_t def_u;           /* unsigned kinds */
    unsigned char def_fbytes[8]; /* FLOAT/DOUBLE: the default's packed bytes */
    int def_bool;
    PyObject *def_obj;        /* STRING: default as UTF-8 bytes; BYTES: default bytes */
    /* decode */
    int init_mode;
    PyObject *init_value;
    int absent_mode;
    PyObject *absent_value;
    PyObject *container;      /* repeated fields held in another container (tuple, set) */
    int oneof;                /* 1.. for members of the contract's n-th oneof, 0 otherwise */
} Field;

#define MAX_ONEOFS 64

typedef struct Plan {
    PyObject_HEAD
    int ready;
    int invalid;              /* the hierarchy changed: every call takes the Python path */
    PyObject *cls;
    PyObject *py_encode;      /* the Python codec: reference, error reporter, fallback */
    PyObject *py_decode;
    PyObject *unknown_key;    /* NULL: unknown fields are not kept */
    int unknown_in_dict;
    PyObject *get_unknown;
    PyObject *set_unknown;
    int use_dict;
    int max_depth;
    Py_ssize_t nfields;
    Field *fields;
    int16_t by_number[33];    /* field index for numbers 1..32, -1 when none */
    /* construction */
    int construct_new;        /* obj = ctor(cls), then set every field */
    PyObject *ctor;
    Py_ssize_t ncall;
    Py_ssize_t npositional;
    Py_ssize_t *call_fields;
    PyObject *kwnames;
    Py_ssize_t nlate;
    Py_ssize_t *late_fields;
    PyObject *list_encode;    /* top-level list[cls]: the Python fallbacks */
    PyObject *list_decode;
    Py_ssize_t fallbacks;     /* calls handed to the Python codec (a debugging aid) */
    struct Hier *hier;        /* levels, for hierarchies and merges (hier.c) */
    int in_place;             /* flat, built by object.__new__ and plain attributes, no
                               * containers: a merge may go into the object (decode.c) */
    /* TypeModel(max_messages=N) (budget.h): N (0: no bound), the Python side's
     * thread-local BUDGET with the name "left", and runtime.too_many_messages */
    Py_ssize_t max_messages;
    PyObject *budget;
    PyObject *budget_name;
    PyObject *too_many;
    /* a plan not set up yet that sets itself up on first use: the model's call that
     * plans it (NativeBackend._pend: a first call plans only the contracts it meets) */
    PyObject *pending;
    PyObject *weakreflist;
} Plan;

/* The FieldInfo attributes planner.c reads (interned names in EngineState.field_attr). */
enum {
    FA_NAME, FA_TAG, FA_LABEL, FA_VALUE, FA_KEY, FA_CONTAINER, FA_PACKED, FA_REQUIRED,
    FA_GROUP, FA_DEFAULT, FA_DEFAULT_FACTORY, FA_KIND, FA_COUNT
};

/* Module state: no mutable C globals. */
typedef struct {
    PyTypeObject *plan_type;
    PyObject *str_encode;
    PyObject *str_decode;
    PyObject *str_value;
    PyObject *str_dict;
    PyObject *empty_bytes;
    void *datetime_api;       /* PyDateTime_CAPI *, from the datetime module's capsule, loaded
                               * by the first plan (or JSON writer/reader) set up that may meet
                               * datetimes: engine_need_datetime (import protoattr does not
                               * import datetime) */
    PyObject *object_new;     /* object.__new__ (construct.c recognises it) */
    int gc_paused;            /* large decodes in progress (entry.c: engine_gc_pause) */
    int gc_was_enabled;       /* the collector was on when the first of them began */
    PyObject *encode_too_deep; /* NestedTooDeeply (RecursionError): encode past the bound */
    PyObject *field_attr[FA_COUNT]; /* planner.c: "name", "tag", ... ("kind": a ValueType's) */
} EngineState;

EngineState *engine_state_of_type(PyTypeObject *tp);
/* Load st->datetime_api if it is not yet (importing datetime): 0, or -1 with an error. */
int engine_need_datetime(EngineState *st);

extern PyType_Spec plan_spec;

static inline Py_ssize_t plan_field_index(const Plan *plan, uint32_t number) {
    if (number <= 32) {
        return plan->by_number[number];
    }
    for (Py_ssize_t i = 0; i < plan->nfields; i++) {
        if (plan->fields[i].number == number) {
            return i;
        }
    }
    return -1;
}

/* Call `plan`'s pending set-up (plan->pending): 1 when the plan is now ready, 0 when it
 * is not (its set-up is dropped: the plan hands over, as any plan not ready does), -1
 * with the set-up's exception (the engine's caller falls back, as for any error). */
int plan_set_up_pending(Plan *plan);

/* Whether the engine may run the nested plan `plan` now: set up and still valid.  A
 * plan planned lazily is set up here, on its first use, by one call back into the model
 * (a failed call leaves its exception: the engine's caller falls back, as for any error).
 * Top-level plans (Plan's own methods, streams, JSON readers) are always set up. */
static inline int plan_usable(Plan *plan) {
    if (plan->ready) {
        return !plan->invalid;
    }
    return plan->pending != NULL && !plan->invalid && plan_set_up_pending(plan) == 1;
}

/* encode.c / decode.c: the engine.  Both return NULL (or -1) on any failure,
 * with or without an exception set: the caller then runs the Python codec,
 * which either produces the result or raises the exact error. */
PyObject *engine_encode(EngineState *st, Plan *plan, PyObject *obj);
/* After the engine failed: 1 (exception cleared) when the Python path may run,
 * 0 when the pending exception (KeyboardInterrupt, SystemExit...) must propagate. */
int engine_may_fall_back(void);
PyObject *engine_decode(EngineState *st, Plan *plan, PyObject *buf, Py_ssize_t pos,
                        Py_ssize_t end, Py_ssize_t depth);
/* The same, called from Python (Plan.decode/decode_list, merges when base is not
 * NULL): a bounded model's message count continues the one in BUDGET.left. */
PyObject *engine_decode_nested(EngineState *st, Plan *plan, PyObject *buf, Py_ssize_t pos,
                               Py_ssize_t end, Py_ssize_t depth, PyObject *base, int list);
/* A top-level list[cls]: repeated field 1 of cls (protobuf-net's form). */
PyObject *engine_encode_list(EngineState *st, Plan *plan, PyObject *items);
PyObject *engine_decode_list(EngineState *st, Plan *plan, PyObject *buf, Py_ssize_t pos,
                             Py_ssize_t end);

/* entry.c: the model entry points (TypeModel.serialize & co. in C) and the GC
 * deferral of large decodes. */
int engine_add_entry_type(PyObject *module);
void engine_gc_pause(EngineState *st);
void engine_gc_resume(EngineState *st);
/* stream.c: FrameReader and encode_frames (length-prefixed streams). */
int engine_add_stream(PyObject *module);
/* json_read.c: JsonReader (from_json in C). */
int engine_add_json_read(PyObject *module);
/* planner.c: field_specs, the common field shapes of a plan's spec. */
int engine_add_planner(PyObject *module);
/* construct.c: a plan's construct_new object, object.__new__ called directly. */
PyObject *engine_new_object(EngineState *st, Plan *plan);

#endif
