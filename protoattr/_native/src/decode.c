/* Decode: from protobuf bytes straight to the user's objects.
 *
 * One pass over the buffer with a cursor and the message's end pointer;
 * every length is checked against that end before it is used, and nesting is
 * bounded by the depth counter.  Field values are collected in a slot array
 * and the object is built at the end by calling the class (its __init__, its
 * __post_init__), exactly as the generated Python decoder does.  Anything the
 * engine does not take on (a merge, a closed enum's unknown number, a group,
 * malformed input) makes it fail without a message: the entry point then
 * runs the Python codec, which gives the result or the exact DecodeError.
 */
#include "engine.h"
#include "wire.h"
#include "timefmt.h"
#include "convert.h"
#include "bcl.h"
#include "stack.h"
#include "budget.h"

#if PY_VERSION_HEX < 0x030B0000
#define PyFloat_Unpack4(p, le) _PyFloat_Unpack4((const unsigned char *)(p), (le))
#define PyFloat_Unpack8(p, le) _PyFloat_Unpack8((const unsigned char *)(p), (le))
#endif

static PyObject *py_ssize(Py_ssize_t v) {
    return PyLong_FromSsize_t(v);
}

/* Call codec.decode(buf, pos, end, depth, None) of a contract the engine does not run. */
static PyObject *call_back_decode(Ctx *c, PyObject *codec, const unsigned char *p,
                                  const unsigned char *e, Py_ssize_t depth) {
    PyObject *dec = PyObject_GetAttr(codec, c->st->str_decode);
    if (dec == NULL) {
        return NULL;
    }
    PyObject *pos = py_ssize(p - c->base);
    PyObject *end = py_ssize(e - c->base);
    PyObject *dep = py_ssize(depth);
    PyObject *out = NULL, *saved;
    if (pos && end && dep && budget_lend(c, &saved) == 0) {
        PyObject *args[5] = {c->bufobj, pos, end, dep, Py_None};
        out = PyObject_Vectorcall(dec, args, 5, NULL);
        if (budget_back(c, saved) < 0) Py_CLEAR(out);
    }
    Py_XDECREF(pos);
    Py_XDECREF(end);
    Py_XDECREF(dep);
    Py_DECREF(dec);
    return out;
}

static PyObject *empty_wire_message(Ctx *c, const ValueSpec *vs, Py_ssize_t depth);

/* The value of an absent non-Optional message: an empty one (converted, for a
 * surrogate: from_surrogate of the empty contract instance). */
static PyObject *empty_message(Ctx *c, const ValueSpec *vs, Py_ssize_t depth) {
    PyObject *x = empty_wire_message(c, vs, depth);
    return vs->conv ? convert_from_wire(c->st, vs, x) : x;
}

static PyObject *empty_wire_message(Ctx *c, const ValueSpec *vs, Py_ssize_t depth) {
    if (vs->sub_native) {
        Plan *sub = (Plan *)vs->sub;
        const unsigned char *none = (const unsigned char *)"";
        return decode_message(c, sub, none, none, depth);
    }
    PyObject *dec = PyObject_GetAttr(vs->sub, c->st->str_decode);
    if (dec == NULL) {
        return NULL;
    }
    PyObject *zero = PyLong_FromLong(0);
    PyObject *dep = py_ssize(depth);
    PyObject *out = NULL, *saved;
    if (zero && dep && budget_lend(c, &saved) == 0) {
        PyObject *args[5] = {c->st->empty_bytes, zero, zero, dep, Py_None};
        out = PyObject_Vectorcall(dec, args, 5, NULL);
        if (budget_back(c, saved) < 0) Py_CLEAR(out);
    }
    Py_XDECREF(zero);
    Py_XDECREF(dep);
    Py_DECREF(dec);
    return out;
}

static PyObject *enum_value(const ValueSpec *vs, int32_t x) {
    PyObject *num = PyLong_FromLong(x);
    if (num == NULL || vs->enum_members == NULL) {
        return num;
    }
    PyObject *member = PyDict_GetItemWithError(vs->enum_members, num);
    if (member != NULL) {
        Py_INCREF(member);
        Py_DECREF(num);
        return member;
    }
    if (PyErr_Occurred() || vs->closed) {
        /* closed: an unknown number goes to the unknown fields (Python does that) */
        Py_DECREF(num);
        return NULL;
    }
    return num;  /* open: the plain int */
}

static PyObject *varint_value(const ValueSpec *vs, uint64_t x) {
    switch (vs->kind) {
    case K_INT32:
        return PyLong_FromLong((long)(int32_t)(uint32_t)x);
    case K_ENUM:
        return enum_value(vs, (int32_t)(uint32_t)x);
    case K_INT64:
        return PyLong_FromLongLong((long long)(int64_t)x);
    case K_UINT32:
        return PyLong_FromUnsignedLong((unsigned long)(uint32_t)x);
    case K_UINT64:
        return PyLong_FromUnsignedLongLong((unsigned long long)x);
    case K_SINT32:
        return PyLong_FromLong((long)unzigzag32((uint32_t)x));
    case K_SINT64:
        return PyLong_FromLongLong((long long)unzigzag64(x));
    case K_BOOL:
        return PyBool_FromLong(x != 0);
    default:
        return NULL;
    }
}

static int fixed_size(int kind) {
    switch (kind) {
    case K_FIXED32: case K_SFIXED32: case K_FLOAT:
        return 4;
    case K_FIXED64: case K_SFIXED64: case K_DOUBLE:
        return 8;
    default:
        return 0;
    }
}

static PyObject *fixed_value(int kind, const unsigned char *p) {
    switch (kind) {
    case K_FIXED32:
        return PyLong_FromUnsignedLong((unsigned long)load_le32(p));
    case K_SFIXED32:
        return PyLong_FromLong((long)(int32_t)load_le32(p));
    case K_FLOAT: {
        double d = PyFloat_Unpack4((const char *)p, 1);
        if (d == -1.0 && PyErr_Occurred()) return NULL;
        uint32_t bits = load_le32(p);
        if ((bits & 0x7F800000u) == 0x7F800000u && (bits & 0x7FFFFFu)) {
            /* a NaN keeps its sign and payload in the double (_wire.float32_nan) */
            uint64_t wide = (uint64_t)(bits >> 31) << 63 | (uint64_t)0x7FF << 52
                            | (uint64_t)(bits & 0x7FFFFFu) << 29;
            memcpy(&d, &wide, 8);
        }
        return PyFloat_FromDouble(d);
    }
    case K_FIXED64:
        return PyLong_FromUnsignedLongLong((unsigned long long)load_le64(p));
    case K_SFIXED64:
        return PyLong_FromLongLong((long long)(int64_t)load_le64(p));
    case K_DOUBLE: {
        double d = PyFloat_Unpack8((const char *)p, 1);
        if (d == -1.0 && PyErr_Occurred()) return NULL;
        return PyFloat_FromDouble(d);
    }
    default:
        return NULL;
    }
}

/* Whether n bytes at p are all ASCII: 8 bytes at a time, the last 8 (or 4, 2) read
 * overlapping the ones before rather than byte by byte (the tail loop was a third of
 * the check on short strings). */
static int is_ascii(const unsigned char *p, Py_ssize_t n) {
    if (n >= 8) {
        uint64_t high = 0, w;
        const unsigned char *last = p + n - 8;
        for (; p < last; p += 8) {
            memcpy(&w, p, 8);
            high |= w;
        }
        memcpy(&w, last, 8);
        return !((high | w) & 0x8080808080808080ull);
    }
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        return !((a | b) & 0x80808080u);
    }
    if (n >= 2) {
        uint16_t a, b;
        memcpy(&a, p, 2);
        memcpy(&b, p + n - 2, 2);
        return !((a | b) & 0x8080u);
    }
    return n == 0 || !(p[0] & 0x80);
}

/* A str from UTF-8 bytes: ASCII (the common case) copied straight into a new
 * compact string, anything else through CPython's strict UTF-8 decoder. */
static PyObject *make_str(const unsigned char *p, Py_ssize_t n) {
    if (!is_ascii(p, n)) {
        return PyUnicode_DecodeUTF8((const char *)p, n, NULL);
    }
    PyObject *s = PyUnicode_New(n, 127);
    if (s != NULL) {
        memcpy(PyUnicode_1BYTE_DATA(s), p, (size_t)n);
    }
    return s;
}

static int read_len(const unsigned char **p, const unsigned char *end,
                    const unsigned char **body_end) {
    uint64_t n;
    if (read_varint(p, end, &n) < 0 || n > (uint64_t)(end - *p)) {
        return -1;
    }
    *body_end = *p + n;
    return 0;
}

/* `vs->helper_decode(buf, start, end, [previous,] depth + 1, max_depth)`: the Python
 * helper of a value the engine does not take itself; `previous` is passed where it is not
 * NULL (time values merge into it).  New reference or NULL. */
static PyObject *call_value_helper(Ctx *c, const ValueSpec *vs, const unsigned char *start,
                                   const unsigned char *e, Py_ssize_t depth,
                                   PyObject *previous) {
    PyObject *pos = py_ssize(start - c->base);
    PyObject *stop = py_ssize(e - c->base);
    PyObject *dep = py_ssize(depth + 1);
    PyObject *maxd = py_ssize(c->max_depth);
    PyObject *out = NULL;
    if (pos && stop && dep && maxd) {
        if (previous != NULL) {
            PyObject *args[6] = {c->bufobj, pos, stop, previous, dep, maxd};
            out = PyObject_Vectorcall(vs->helper_decode, args, 6, NULL);
        } else {
            PyObject *args[5] = {c->bufobj, pos, stop, dep, maxd};
            out = PyObject_Vectorcall(vs->helper_decode, args, 5, NULL);
        }
    }
    Py_XDECREF(pos);
    Py_XDECREF(stop);
    Py_XDECREF(dep);
    Py_XDECREF(maxd);
    return out;
}

/* One value of `vs` (its tag already read, wire type checked) at *p. `previous` is
 * the current value for time values (merged by the helper). New reference or NULL. */
static PyObject *read_wire_value(Ctx *c, const ValueSpec *vs, const unsigned char **p,
                                 const unsigned char *end, Py_ssize_t depth,
                                 PyObject *previous) {
    int kind = vs->kind;
    int size = fixed_size(kind);
    if (size) {
        if (end - *p < size) {
            return NULL;
        }
        PyObject *out = fixed_value(kind, *p);
        *p += size;
        return out;
    }
    if (vs->wire_type == WT_VARINT) {
        uint64_t x;
        if (read_varint(p, end, &x) < 0) {
            return NULL;
        }
        return varint_value(vs, x);
    }
    const unsigned char *e;
    if (read_len(p, end, &e) < 0) {
        return NULL;
    }
    const unsigned char *start = *p;
    *p = e;
    switch (kind) {
    case K_STRING:
        return make_str(start, e - start);
    case K_BYTES:
        return PyBytes_FromStringAndSize((const char *)start, e - start);
    case K_MESSAGE:
        if (vs->sub_native) {
            return decode_message(c, (Plan *)vs->sub, start, e, depth + 1);
        }
        return call_back_decode(c, vs->sub, start, e, depth + 1);
    case K_TIMESTAMP: case K_DURATION: {
        /* a Timestamp/Duration is a level of its own (Python checks depth + 1) */
        if (depth + 1 > c->max_depth) {
            return NULL;
        }
        if (previous == NULL || previous == Py_None || previous == vs->zero) {
            int taken;
            PyObject *t = time_decode(c->st->datetime_api, kind == K_TIMESTAMP, start, e, &taken);
            if (taken) {
                return t;
            }
        }
        /* a merge (into a default too), other fields in the body (groups there count
         * depth on from depth + 1), a value out of range: the Python helper, as the
         * generated decoder calls it (its error, if any, makes the codec run) */
        return call_value_helper(c, vs, start, e, depth, previous ? previous : Py_None);
    }
    case K_BCL_DATETIME: case K_BCL_TIMESPAN: case K_BCL_DECIMAL: case K_BCL_GUID: {
        /* each occurrence read whole (protobuf-net does not merge them) */
        if (depth + 1 > c->max_depth) {
            return NULL;
        }
        int taken;
        PyObject *t = bcl_decode(c->st->datetime_api, vs, start, e, &taken);
        if (taken) {
            return t;
        }
        /* anything unusual: the Python helper (its error, if any, makes the codec run) */
        return call_value_helper(c, vs, start, e, depth, NULL);
    }
    default:
        return NULL;
    }
}

/* read_wire_value, then converted to the user's type where the value travels as
 * another kind (a Decimal read as a string, a surrogate as its contract). */
ENGINE_INLINE PyObject *read_value(Ctx *c, const ValueSpec *vs, const unsigned char **p,
                                   const unsigned char *end, Py_ssize_t depth,
                                   PyObject *previous) {
    PyObject *x = read_wire_value(c, vs, p, end, depth, previous);
    return vs->conv ? convert_from_wire(c->st, vs, x) : x;
}

/* Skip the value of an unknown field (a group counts depth from `depth`, the
 * message's); -1 for what Python reports as an error. */
int skip_value(Ctx *c, uint64_t tag, const unsigned char **p, const unsigned char *end,
               Py_ssize_t depth) {
    uint64_t number = tag >> 3;
    if (number == 0 || number > MAX_FIELD_NUMBER) {
        return -1;
    }
    switch (tag & 7) {
    case WT_VARINT: {
        uint64_t x;
        return read_varint(p, end, &x);
    }
    case WT_I64:
        if (end - *p < 8) return -1;
        *p += 8;
        return 0;
    case WT_I32:
        if (end - *p < 4) return -1;
        *p += 4;
        return 0;
    case WT_LEN: {
        const unsigned char *e;
        if (read_len(p, end, &e) < 0) return -1;
        *p = e;
        return 0;
    }
    case WT_SGROUP:
        return skip_group(c, (uint32_t)number, p, end, depth);
    default:
        return -1;
    }
}

static int list_append_new(PyObject *list, PyObject *item) {
    if (item == NULL) {
        return -1;
    }
    int r = PyList_Append(list, item);
    Py_DECREF(item);
    return r;
}

static int is_packable(int kind) {
    return kind != K_STRING && kind != K_BYTES && kind != K_MESSAGE && kind != K_TIMESTAMP
           && kind != K_DURATION && !is_bcl_kind(kind);
}

static int read_map_entry(Ctx *c, const Field *f, PyObject *dict, const unsigned char **p,
                          const unsigned char *end, Py_ssize_t depth) {
    const unsigned char *me;
    if (read_len(p, end, &me) < 0) {
        return -1;
    }
    const ValueSpec *ks = &f->key, *vs = &f->value;
    PyObject *k = ks->zero, *y = vs->kind == K_MESSAGE ? NULL : vs->zero;
    Py_XINCREF(k);
    Py_XINCREF(y);
    uint64_t ktag = 1 << 3 | (uint64_t)ks->wire_type;
    uint64_t vtag = 2 << 3 | (uint64_t)vs->wire_type;
    int r = -1;
    while (*p < me) {
        uint64_t t;
        if (read_tag(p, me, &t) < 0) {
            goto done;
        }
        if (t == ktag) {
            PyObject *nk = read_value(c, ks, p, me, depth, NULL);
            if (nk == NULL) goto done;
            Py_XSETREF(k, nk);
        } else if (t == vtag) {
            if (vs->kind == K_MESSAGE && y != NULL) {
                goto done;  /* a value seen twice merges: Python does that */
            }
            /* upb counts the entry as a level: a message value is two levels down */
            PyObject *ny = read_value(c, vs, p, me, depth + 1, y);
            if (ny == NULL) goto done;
            Py_XSETREF(y, ny);
        } else {
            goto done;  /* any other field: the whole entry is unknown (Python, upb) */
        }
    }
    if (*p != me || k == NULL) {
        goto done;
    }
    if (y == NULL) {
        if (vs->kind != K_MESSAGE) goto done;
        y = empty_message(c, vs, depth + 1);
        if (y == NULL) goto done;
    }
    r = PyDict_SetItem(dict, k, y);
done:
    Py_XDECREF(k);
    Py_XDECREF(y);
    return r;
}

/* Read field `f` whose tag (wire type `wt`) was just read into `*slot`.
 * 1: read; 0: not a form of this field (an unknown field); -1: failure. */
ENGINE_INLINE int field_read(Ctx *c, const Field *f, int wt, const unsigned char **p,
                              const unsigned char *end, Py_ssize_t depth, PyObject **slot) {
    const ValueSpec *vs = &f->value;
    if (vs->wire_type == WT_SGROUP) return read_group_field(c, f, wt, p, end, depth, slot);
    switch (f->label) {
    case L_MAP:
        if (wt != WT_LEN) return 0;
        return read_map_entry(c, f, *slot, p, end, depth) < 0 ? -1 : 1;
    case L_REPEATED:
        if (wt == vs->wire_type) {
            return list_append_new(*slot, read_value(c, vs, p, end, depth, NULL)) < 0 ? -1 : 1;
        }
        if (wt == WT_LEN && is_packable(vs->kind)) {
            const unsigned char *pe;
            if (read_len(p, end, &pe) < 0) return -1;
            int size = fixed_size(vs->kind);
            if (size && (pe - *p) % size) return -1;
            while (*p < pe) {
                if (list_append_new(*slot, read_value(c, vs, p, pe, depth, NULL)) < 0) {
                    return -1;
                }
            }
            return *p == pe ? 1 : -1;
        }
        return 0;
    default:
        if (wt != vs->wire_type) return 0;
        if (vs->kind == K_MESSAGE && *slot != NULL && *slot != Py_None) {
            return merge_field(c, f, p, end, depth, slot);  /* seen twice: merged */
        }
        {
            PyObject *v = read_value(c, vs, p, end, depth, *slot);
            if (v == NULL) return -1;
            Py_XSETREF(*slot, v);
        }
        return 1;
    }
}

/* The same, for the other files (hier.c reads each level's fields through this). */
int read_field(Ctx *c, const Field *f, int wt, const unsigned char **p, const unsigned char *end,
               Py_ssize_t depth, PyObject **slot) {
    return field_read(c, f, wt, p, end, depth, slot);
}

int unknown_add(Unknown *u, const unsigned char *src, Py_ssize_t n) {
    if (n > u->cap - u->len) {
        if (n > PY_SSIZE_T_MAX / 4 - u->len) {
            PyErr_NoMemory();
            return -1;
        }
        Py_ssize_t cap = (u->len + n) * 2;
        char *data = PyMem_Realloc(u->data, (size_t)cap);
        if (data == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        u->data = data;
        u->cap = cap;
    }
    memcpy(u->data + u->len, src, (size_t)n);
    u->len += n;
    return 0;
}

int fill_absent(Ctx *c, const Field *f, PyObject **slot, Py_ssize_t depth) {
    PyObject *v;
    switch (f->absent_mode) {
    case ABSENT_REQUIRED:
        return -1;
    case ABSENT_FACTORY:
        v = PyObject_CallNoArgs(f->absent_value);
        break;
    case ABSENT_EMPTY:
        v = empty_message(c, &f->value, depth + 1);
        break;
    case ABSENT_VALUE:
        v = f->absent_value ? f->absent_value : Py_None;
        Py_INCREF(v);
        break;
    default:
        v = Py_None;
        Py_INCREF(v);
        break;
    }
    if (v == NULL) {
        return -1;
    }
    *slot = v;
    return 0;
}

/* Hand the unknown fields read for `obj` to the Python side's set_unknown(obj, key,
 * bytes), which keeps them where the Python codec would: 0, or -1 with an error. */
int store_unknown(PyObject *set_unknown, PyObject *obj, PyObject *key, const Unknown *u) {
    PyObject *bytes = PyBytes_FromStringAndSize(u->data, u->len);
    if (bytes == NULL) {
        return -1;
    }
    PyObject *args[3] = {obj, key, bytes};
    PyObject *r = PyObject_Vectorcall(set_unknown, args, 3, NULL);
    Py_DECREF(bytes);
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    return 0;
}

PyObject *construct_object(EngineState *st, Plan *plan, PyObject **vals) {
    PyObject *obj;
    if (plan->construct_new) {
        obj = engine_new_object(st, plan);
    } else {
        PyObject *small[16] = {NULL};  /* gcc 12 cannot see that ncall == 0 reads none */
        PyObject **args = small;
        if (plan->ncall > 16) {
            args = PyMem_Malloc((size_t)plan->ncall * sizeof(PyObject *));
            if (args == NULL) return PyErr_NoMemory();
        }
        for (Py_ssize_t j = 0; j < plan->ncall; j++) {
            args[j] = vals[plan->call_fields[j]];  /* borrowed from vals */
        }
        obj = PyObject_Vectorcall(plan->ctor, args, (size_t)plan->npositional, plan->kwnames);
        if (args != small) PyMem_Free(args);
    }
    if (obj == NULL) {
        return NULL;
    }
    for (Py_ssize_t j = 0; j < plan->nlate; j++) {
        const Field *f = &plan->fields[plan->late_fields[j]];
        if (PyObject_GenericSetAttr(obj, f->name, vals[plan->late_fields[j]]) < 0) {
            Py_DECREF(obj);
            return NULL;
        }
    }
    return obj;
}

/* `merged`: the decode made Merged values while reading these (some may be here). */
static PyObject *build(Ctx *c, Plan *plan, PyObject **vals, Py_ssize_t depth, Unknown *unknown,
                       int merged) {
    for (Py_ssize_t i = 0; merged && i < plan->nfields; i++) {  /* merged ones built first */
        if (vals[i] != NULL && PyCapsule_CheckExact(vals[i])
            && merged_finish_slot(c, &vals[i]) < 0) {
            return NULL;
        }
    }
    for (Py_ssize_t i = 0; i < plan->nfields; i++) {
        const Field *f = &plan->fields[i];
        if (vals[i] == NULL && fill_absent(c, f, &vals[i], depth) < 0) {
            return NULL;
        }
        if (f->container != NULL) {
            PyObject *conv = PyObject_CallOneArg(f->container, vals[i]);
            if (conv == NULL) return NULL;
            Py_SETREF(vals[i], conv);
        }
    }
    PyObject *obj = construct_object(c->st, plan, vals);
    if (obj == NULL) {
        return NULL;
    }
    if (unknown->len && store_unknown(plan->set_unknown, obj, plan->unknown_key, unknown) < 0) {
        Py_DECREF(obj);
        return NULL;
    }
    return obj;
}

static int merge_into(Ctx *c, Plan *plan, PyObject *obj, const unsigned char *p,
                      const unsigned char *end, Py_ssize_t depth);

/* A singular message field seen again in a fresh decode: is its value, `v`, an object
 * this decode built that can take the new fields in place?  It is when its plan is
 * flat and built with object.__new__ and plain attributes (no user code runs, no
 * container conversions: plan->in_place) and `v` is exactly that class and cannot
 * be a default given by the contract (a default value or factory may be shared:
 * those fields merge by copying, as the Python codec does).  Building a new object from v's values and the new fields,
 * as the Python codec does, gives an equal one: so protobuf's merge of a field
 * repeated n times costs what its new fields cost, not n rebuilds of the subtree. */
ENGINE_INLINE int takes_in_place(const Field *f, int wt, PyObject *v) {
    const ValueSpec *vs = &f->value;
    return vs->kind == K_MESSAGE && wt == WT_LEN && vs->wire_type == WT_LEN && vs->sub_native
           && !vs->conv && v != NULL && v != Py_None && f->absent_mode != ABSENT_FACTORY
           && (f->absent_mode != ABSENT_VALUE || f->absent_value == NULL
               || f->absent_value == Py_None)
           && ((Plan *)vs->sub)->in_place && (PyObject *)Py_TYPE(v) == ((Plan *)vs->sub)->cls
           && f->label != L_REPEATED && f->label != L_MAP;
}

/* A singular string field outside any oneof, read as a str as it is (no conversion):
 * decode_message reads it itself. */
ENGINE_INLINE int plain_string(const Field *f) {
    return f->value.kind == K_STRING && f->label <= L_OPTIONAL && !f->oneof && !f->value.conv;
}

/* field_read, or the merge in place of a message this decode built (takes_in_place). */
static int read_known(Ctx *c, const Field *f, int wt, const unsigned char **p,
                      const unsigned char *end, Py_ssize_t depth, PyObject **slot) {
    if (takes_in_place(f, wt, *slot)) {
        const unsigned char *e;
        if (read_len(p, end, &e) < 0) {
            return -1;
        }
        if (merge_into(c, (Plan *)f->value.sub, *slot, *p, e, depth + 1) < 0) {
            return -1;
        }
        *p = e;
        return 1;
    }
    return field_read(c, f, wt, p, end, depth, slot);
}

/* The oneof rule: the member just read wins, the plan's other members become None. */
static int clear_other_members(const Plan *plan, Py_ssize_t idx, PyObject *obj,
                               PyObject **vals) {
    int group = plan->fields[idx].oneof;
    for (Py_ssize_t j = 0; j < plan->nfields; j++) {
        if (j == idx || plan->fields[j].oneof != group) {
            continue;
        }
        if (vals != NULL) {
            Py_INCREF(Py_None);
            Py_XSETREF(vals[j], Py_None);
        } else if (PyObject_GenericSetAttr(obj, plan->fields[j].name, Py_None) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Unknown fields that merges in place append to objects this decode built: while
 * the fresh decode_message that holds them runs, each such object keeps a bytearray
 * that grows in place, and the list below names them; before that decode builds its
 * own object (or runs any other code: a constructor may look at its arguments) each
 * becomes bytes again, the form every other part of the library reads.  Appending to
 * bytes instead copied all kept so far at each merge: a nested message with an
 * unknown field, repeated n times, cost O(n^2) (seconds per megabyte). */
typedef struct {
    PyObject *obj;  /* a strong reference */
    Plan *plan;
    Py_ssize_t field;  /* -1: obj's unknown fields; else plan's field holding a Merged */
} PendingEntry;

typedef struct Pending {
    PendingEntry *items;
    Py_ssize_t len;
    Py_ssize_t cap;
} Pending;

/* What `obj` keeps as its unknown fields, as stored (a new reference; NULL when
 * nothing): 0, or -1 (with an error, or none: the Python codec decides). */
static int kept_unknown(Ctx *c, Plan *plan, PyObject *obj, PyObject **out) {
    *out = NULL;
    if (!plan->unknown_in_dict) {
        PyObject *args[2] = {obj, plan->unknown_key};
        *out = PyObject_Vectorcall(plan->get_unknown, args, 2, NULL);
        return *out == NULL ? -1 : 0;
    }
    PyObject *d = PyObject_GetAttr(obj, c->st->str_dict);
    if (d == NULL) {
        return -1;
    }
    int r = -1;
    if (PyDict_CheckExact(d)) {
        *out = PyDict_GetItemWithError(d, plan->unknown_key);
        Py_XINCREF(*out);
        r = *out == NULL && PyErr_Occurred() ? -1 : 0;
    }
    Py_DECREF(d);
    return r;
}

static int keep_unknown(Plan *plan, PyObject *obj, PyObject *data) {
    PyObject *args[3] = {obj, plan->unknown_key, data};
    PyObject *r = PyObject_Vectorcall(plan->set_unknown, args, 3, NULL);
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    return 0;
}

static int pending_add(Pending *pd, PyObject *obj, Plan *plan, Py_ssize_t field) {
    if (pd->len == pd->cap) {
        Py_ssize_t cap = pd->cap ? pd->cap * 2 : 4;
        PendingEntry *items = PyMem_Realloc(pd->items, (size_t)cap * sizeof(PendingEntry));
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        pd->items = items;
        pd->cap = cap;
    }
    Py_INCREF(obj);
    pd->items[pd->len].obj = obj;
    pd->items[pd->len].plan = plan;
    pd->items[pd->len].field = field;
    pd->len++;
    return 0;
}

static void pending_release(Pending *pd) {
    for (Py_ssize_t i = 0; i < pd->len; i++) {
        Py_DECREF(pd->items[i].obj);
    }
    PyMem_Free(pd->items);
    pd->items = NULL;
    pd->len = pd->cap = 0;
}

/* A Merged a merge in place left in obj's attribute, built (see merge_into). */
static int pending_build(Ctx *c, PyObject *obj, const Field *f) {
    PyObject *v = PyObject_GetAttr(obj, f->name);
    if (v == NULL) {
        return -1;
    }
    int r = merged_finish_slot(c, &v);
    if (r == 0) {
        r = PyObject_GenericSetAttr(obj, f->name, v);
    }
    Py_DECREF(v);
    return r;
}

/* Each pending object's bytearray becomes bytes, each Merged left in an attribute
 * its object: 0, or -1. */
static int pending_flush(Ctx *c, Pending *pd) {
    for (Py_ssize_t i = 0; i < pd->len; i++) {
        PyObject *obj = pd->items[i].obj, *kept;
        Plan *plan = pd->items[i].plan;
        if (pd->items[i].field >= 0) {
            if (pending_build(c, obj, &plan->fields[pd->items[i].field]) < 0) {
                return -1;
            }
            continue;
        }
        if (kept_unknown(c, plan, obj, &kept) < 0) {
            return -1;
        }
        int r = 0;
        if (kept != NULL && PyByteArray_CheckExact(kept)) {
            PyObject *bytes = PyBytes_FromStringAndSize(PyByteArray_AS_STRING(kept),
                                                        PyByteArray_GET_SIZE(kept));
            r = bytes == NULL ? -1 : keep_unknown(plan, obj, bytes);
            Py_XDECREF(bytes);
        }
        Py_XDECREF(kept);
        if (r < 0) {
            return -1;
        }
    }
    return 0;
}

/* The unknown fields `u` read for `obj` in a merge, after those it kept already:
 * appended in place to the bytearray it keeps while pending (see Pending). */
static int append_unknown(Ctx *c, Plan *plan, PyObject *obj, const Unknown *u) {
    PyObject *old;
    if (kept_unknown(c, plan, obj, &old) < 0) {
        return -1;
    }
    int r = -1;
    if (old != NULL && PyByteArray_CheckExact(old)) {  /* pending: grows in place */
        Py_ssize_t n = PyByteArray_GET_SIZE(old);
        if (PyByteArray_Resize(old, n + u->len) == 0) {
            memcpy(PyByteArray_AS_STRING(old) + n, u->data, (size_t)u->len);
            r = 0;
        }
    } else if (old == NULL || old == Py_None || PyBytes_CheckExact(old)) {
        Py_ssize_t n = old != NULL && old != Py_None ? PyBytes_GET_SIZE(old) : 0;
        PyObject *all = c->pend != NULL ? PyByteArray_FromStringAndSize(NULL, n + u->len)
                                        : PyBytes_FromStringAndSize(NULL, n + u->len);
        if (all != NULL) {
            char *to = c->pend != NULL ? PyByteArray_AS_STRING(all) : PyBytes_AS_STRING(all);
            if (n) {
                memcpy(to, PyBytes_AS_STRING(old), (size_t)n);
            }
            memcpy(to + n, u->data, (size_t)u->len);
            r = keep_unknown(plan, obj, all);
            if (r == 0 && c->pend != NULL) {
                r = pending_add(c->pend, obj, plan, -1);
            }
            Py_DECREF(all);
        }
    }  /* else something else is kept there: the Python codec decides */
    Py_XDECREF(old);
    return r;
}

/* Merge the message at [p, end) into `obj`, a `plan` object this decode built
 * (takes_in_place): each field read goes straight into its attribute (a list or map
 * grows in place, a message merges on down), counted and depth-checked as a message,
 * as the Python decoder's merge is.  On failure obj may be half-merged: the whole
 * decode then fails and runs again in Python, and obj is dropped with it. */
static int merge_into(Ctx *c, Plan *plan, PyObject *obj, const unsigned char *p,
                      const unsigned char *end, Py_ssize_t depth) {
    if (stack_low() || !plan_usable(plan) || depth > plan->max_depth
        || depth > NATIVE_MAX_DEPTH) {
        return -1;
    }
    if (take_message(c, plan, p) < 0) {
        return -1;
    }
    Unknown unknown = {NULL, 0, 0};
    int r = -1;
    while (p < end) {
        const unsigned char *t0 = p;
        uint64_t tag;
        if (read_tag(&p, end, &tag) < 0) {
            goto done;
        }
        Py_ssize_t idx = plan_field_index(plan, (uint32_t)(tag >> 3));
        int got = 0;
        if (idx >= 0) {
            const Field *f = &plan->fields[idx];
            PyObject *slot = PyObject_GetAttr(obj, f->name);
            if (slot == NULL) {
                goto done;
            }
            int was_merged = is_merged(slot);
            got = read_known(c, f, (int)(tag & 7), &p, end, depth, &slot);
            /* a merge that waits for a build (hier.c's Merged): obj is built already, so
             * the fresh decode holding it builds that value before its own build */
            if (got == 1 && !was_merged && is_merged(slot)
                && (c->pend != NULL ? pending_add(c->pend, obj, plan, idx)
                                    : merged_finish_slot(c, &slot)) < 0) {
                got = -1;
            }
            if (got == 1 && PyObject_GenericSetAttr(obj, f->name, slot) < 0) {
                got = -1;
            }
            Py_DECREF(slot);
            if (got < 0 || (got == 1 && f->oneof && clear_other_members(plan, idx, obj, NULL) < 0)) {
                goto done;
            }
        }
        if (got == 0) {
            if (skip_value(c, tag, &p, end, depth) < 0) {
                goto done;
            }
            if (plan->unknown_key != NULL && unknown_add(&unknown, t0, p - t0) < 0) {
                goto done;
            }
        }
    }
    if (p == end && (unknown.len == 0 || append_unknown(c, plan, obj, &unknown) == 0)) {
        r = 0;
    }
done:
    PyMem_Free(unknown.data);
    return r;
}

PyObject *decode_message(Ctx *c, Plan *plan, const unsigned char *p, const unsigned char *end,
                         Py_ssize_t depth) {
    if (stack_low()) return NULL;  /* the thread's C stack is nearly used up */
    if (hier_is_multi(plan)) return hier_decode(c, plan, p, end, depth, NULL);
    if (!plan_usable(plan) || depth > plan->max_depth || depth > NATIVE_MAX_DEPTH) {
        return NULL;
    }
    if (take_message(c, plan, p) < 0) {
        return NULL;
    }
    Py_ssize_t n = plan->nfields;
    PyObject *small[24];
    PyObject **vals = small;
    if (n > 24) {
        vals = PyMem_Calloc((size_t)n, sizeof(PyObject *));
        if (vals == NULL) return PyErr_NoMemory();
    }
    PyObject *obj = NULL;
    Unknown unknown = {NULL, 0, 0};
    Pending pend = {NULL, 0, 0}, *outer = c->pend;
    Py_ssize_t merges = c->merges;
    for (Py_ssize_t i = 0; i < n; i++) {
        const Field *f = &plan->fields[i];
        switch (f->init_mode) {
        case INIT_VALUE:
            vals[i] = f->init_value;
            Py_INCREF(vals[i]);
            break;
        case INIT_LIST:
            vals[i] = PyList_New(0);
            break;
        case INIT_DICT:
            vals[i] = PyDict_New();
            break;
        default:
            vals[i] = NULL;
            continue;
        }
        if (vals[i] == NULL) {
            n = i;  /* release what was made so far */
            goto done;
        }
    }
    c->pend = &pend;  /* merges in place below append unknown fields here */
    while (p < end) {
        const unsigned char *t0 = p;
        uint64_t tag;
        if (read_tag(&p, end, &tag) < 0) {
            goto done;
        }
        Py_ssize_t idx = plan_field_index(plan, (uint32_t)(tag >> 3));
        int r = 0;
        if (idx >= 0 && (tag & 7) == WT_LEN && plain_string(&plan->fields[idx])) {
            /* the commonest field of all, read here (what field_read does for it, without
             * its dispatch: ~60 instructions a string, 8% of the boilers workload) */
            const unsigned char *e;
            if (read_len(&p, end, &e) < 0) {
                goto done;
            }
            PyObject *str = make_str(p, e - p);
            if (str == NULL) {
                goto done;
            }
            Py_XSETREF(vals[idx], str);
            p = e;
            continue;
        }
        if (idx >= 0) {
            r = read_known(c, &plan->fields[idx], (int)(tag & 7), &p, end, depth, &vals[idx]);
            if (r < 0) {
                goto done;
            }
            if (r == 1 && plan->fields[idx].oneof) {  /* the last member seen wins */
                clear_other_members(plan, idx, NULL, vals);
            }
        }
        if (r == 0) {
            if (skip_value(c, tag, &p, end, depth) < 0) {
                goto done;
            }
            if (plan->unknown_key != NULL && unknown_add(&unknown, t0, p - t0) < 0) {
                goto done;
            }
        }
    }
    c->pend = outer;
    if (p == end && (pend.len == 0 || pending_flush(c, &pend) == 0)) {
        obj = build(c, plan, vals, depth, &unknown, c->merges != merges);
    }
done:
    c->pend = outer;
    if (pend.items != NULL) {
        pending_release(&pend);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_XDECREF(vals[i]);
    }
    if (vals != small) {
        PyMem_Free(vals);
    }
    PyMem_Free(unknown.data);
    return obj;
}

PyObject *engine_decode(EngineState *st, Plan *plan, PyObject *buf, Py_ssize_t pos,
                        Py_ssize_t end, Py_ssize_t depth) {
    Ctx c;
    ctx_start(&c, st, plan, buf, 0);
    return decode_message(&c, plan, c.base + pos, c.base + end, depth);
}

static PyObject *decode_list(Ctx *c, Plan *plan, Py_ssize_t pos, Py_ssize_t end) {
    const unsigned char *p = c->base + pos, *e = c->base + end;
    /* the list itself is no message: its items count (as in the Python list codec) */
    PyObject *items = PyList_New(0);
    if (items == NULL) {
        return NULL;
    }
    while (p < e) {
        uint64_t tag;
        if (read_tag(&p, e, &tag) < 0) {
            goto fail;
        }
        if (tag == 10) {
            const unsigned char *item_end;
            if (read_len(&p, e, &item_end) < 0
                || list_append_new(items, decode_message(c, plan, p, item_end, 1)) < 0) {
                goto fail;
            }
            p = item_end;
        } else if (skip_value(c, tag, &p, e, 0) < 0) {
            goto fail;
        }
    }
    if (p == e) {
        return items;
    }
fail:
    Py_DECREF(items);
    return NULL;
}

PyObject *engine_decode_list(EngineState *st, Plan *plan, PyObject *buf, Py_ssize_t pos,
                             Py_ssize_t end) {
    Ctx c;
    ctx_start(&c, st, plan, buf, 0);
    return decode_list(&c, plan, pos, end);
}

PyObject *engine_decode_nested(EngineState *st, Plan *plan, PyObject *buf, Py_ssize_t pos,
                               Py_ssize_t end, Py_ssize_t depth, PyObject *base, int list) {
    Ctx c;
    if (ctx_start(&c, st, plan, buf, 1) < 0) {
        return NULL;
    }
    PyObject *out;
    if (list) {
        out = decode_list(&c, plan, pos, end);
    } else if (base != NULL) {
        out = hier_decode(&c, plan, c.base + pos, c.base + end, depth, base);
    } else {
        out = decode_message(&c, plan, c.base + pos, c.base + end, depth);
    }
    ctx_finish(&c, out);
    return out;
}
