/* Encode: from the user's object straight to protobuf bytes.
 *
 * Mirrors the generated Python encoder field for field (tag order, skip
 * rules, unknown fields last).  Whatever it does not take on (a value of an
 * unexpected type, a number out of range, a foreign mapping) makes it fail
 * without a message; the entry point then runs the Python codec, which is the
 * reference for every result and every error.
 */
#include "engine.h"
#include "wire.h"
#include "timefmt.h"
#include "convert.h"
#include "bcl.h"
#include "stack.h"

#if PY_VERSION_HEX < 0x030B0000
#define PyFloat_Pack4(x, p, le) _PyFloat_Pack4((x), (unsigned char *)(p), (le))
#define PyFloat_Pack8(x, p, le) _PyFloat_Pack8((x), (unsigned char *)(p), (le))
#endif


/* A float32 as the Python backend packs it: a NaN keeps the sign and the top payload
 * bits of the double (_wire.pack_float32_nan), anything else as struct does. */
static int pack_float32(double d, unsigned char *p) {
    if (d != d) {
        uint64_t wide;
        memcpy(&wide, &d, 8);
        uint32_t payload = (uint32_t)(wide >> 29) & 0x7FFFFFu;
        store_le32(p, (uint32_t)(wide >> 63) << 31 | 0x7F800000u | (payload ? payload : 0x400000u));
        return 0;
    }
    return PyFloat_Pack4(d, (char *)p, 1);
}

/* The enum number of `v`; a new reference to the int in *hold when .value was read. */
static int get_enum(EngineState *st, const ValueSpec *vs, PyObject *v, int64_t *out) {
    int r;
    if (vs->enum_plain && !PyLong_CheckExact(v)) {
        PyObject *num = PyObject_GetAttr(v, st->str_value);
        if (num == NULL) {
            return -1;
        }
        r = get_signed(num, INT32_MIN, INT32_MAX, out);
        Py_DECREF(num);
    } else {
        r = get_signed(v, INT32_MIN, INT32_MAX, out);
    }
    if (r < 0 || !vs->closed) {
        return r;
    }
    /* a closed enum takes its members only (the Python codec's check: an instance of
     * the enum, or an int it defines); anything else: Python raises */
    if (vs->enum_members == NULL) {
        return -1;
    }
    PyObject *num = PyLong_FromLongLong((long long)*out);
    if (num == NULL) {
        return -1;
    }
    PyObject *member = PyDict_GetItemWithError(vs->enum_members, num);
    Py_DECREF(num);
    if (member == NULL || (!PyLong_Check(v) && Py_TYPE(v) != Py_TYPE(member))) {
        return -1;
    }
    return 0;
}

/* Integer kinds: the varint (or fixed) payload of `v`, range-checked.
 * is_fixed/size tell how to write it. */
static int int_payload(EngineState *st, const ValueSpec *vs, PyObject *v, uint64_t *out) {
    int64_t s;
    uint64_t u;
    switch (vs->kind) {
    case K_INT32: case K_SFIXED32:
        if (get_signed(v, INT32_MIN, INT32_MAX, &s) < 0) return -1;
        *out = vs->kind == K_SFIXED32 ? (uint64_t)(uint32_t)(int32_t)s : (uint64_t)s;
        return 0;
    case K_ENUM:
        if (get_enum(st, vs, v, &s) < 0) return -1;
        *out = (uint64_t)s;
        return 0;
    case K_INT64: case K_SFIXED64:
        if (get_signed(v, INT64_MIN, INT64_MAX, &s) < 0) return -1;
        *out = (uint64_t)s;
        return 0;
    case K_SINT32:
        if (get_signed(v, INT32_MIN, INT32_MAX, &s) < 0) return -1;
        *out = zigzag32((int32_t)s);
        return 0;
    case K_SINT64:
        if (get_signed(v, INT64_MIN, INT64_MAX, &s) < 0) return -1;
        *out = zigzag64(s);
        return 0;
    case K_UINT32: case K_FIXED32:
        if (get_unsigned(v, UINT32_MAX, &u) < 0) return -1;
        *out = u;
        return 0;
    case K_UINT64: case K_FIXED64:
        if (get_unsigned(v, UINT64_MAX, &u) < 0) return -1;
        *out = u;
        return 0;
    case K_BOOL:
        if (v == Py_True) { *out = 1; return 0; }
        if (v == Py_False) { *out = 0; return 0; }
        if (PyLong_CheckExact(v)) {
            int overflow = 0;
            long x = PyLong_AsLongAndOverflow(v, &overflow);
            if (!overflow && (x == 0 || x == 1)) {
                *out = (uint64_t)x;
                return 0;
            }
        }
        return -1;
    default:
        return -1;
    }
}

/* The content of an exact bytes or bytearray (both are written as they are). */
static int bytes_like(PyObject *v, const char **s, Py_ssize_t *n) {
    if (PyBytes_CheckExact(v)) {
        *s = PyBytes_AS_STRING(v);
        *n = PyBytes_GET_SIZE(v);
        return 0;
    }
    if (PyByteArray_CheckExact(v)) {
        *s = PyByteArray_AS_STRING(v);
        *n = PyByteArray_GET_SIZE(v);
        return 0;
    }
    return -1;
}

static int is_varint_kind(int kind) {
    return kind <= K_SINT64 || kind == K_BOOL || kind == K_ENUM;
}

/* A body a Python callable encoded (a new reference, or NULL), written with its length;
 * anything but exact bytes is a failure (the Python codec then reports it). */
static int write_body(Buf *b, PyObject *body) {
    if (body == NULL) {
        return -1;
    }
    int r = PyBytes_CheckExact(body)
                ? buf_write_delimited(b, PyBytes_AS_STRING(body), PyBytes_GET_SIZE(body))
                : -1;
    Py_DECREF(body);
    return r;
}

/* A str's UTF-8: an ASCII string's own bytes (most field values: no call), else the
 * UTF-8 CPython caches on the string (NULL with an error for a lone surrogate). */
static inline const char *str_utf8(PyObject *v, Py_ssize_t *n) {
    if (PyUnicode_IS_ASCII(v)) {
        *n = PyUnicode_GET_LENGTH(v);
        return (const char *)PyUnicode_1BYTE_DATA(v);
    }
    return PyUnicode_AsUTF8AndSize(v, n);
}

/* The value `v` of the wire kind without its tag (converted already). */
static int write_wire_payload(EngineState *st, const ValueSpec *vs, PyObject *v, Buf *b,
                              int depth) {
    int kind = vs->kind;
    if (is_varint_kind(kind)) {
        uint64_t x;
        if (int_payload(st, vs, v, &x) < 0 || buf_reserve(b, 10) < 0) {
            return -1;
        }
        buf_put_varint_unchecked(b, x);
        return 0;
    }
    switch (kind) {
    case K_FIXED32: case K_SFIXED32: case K_FIXED64: case K_SFIXED64: {
        uint64_t x;
        if (int_payload(st, vs, v, &x) < 0 || buf_reserve(b, 8) < 0) {
            return -1;
        }
        if (kind == K_FIXED32 || kind == K_SFIXED32) {
            store_le32((unsigned char *)b->data + b->len, (uint32_t)x);
            b->len += 4;
        } else {
            store_le64((unsigned char *)b->data + b->len, x);
            b->len += 8;
        }
        return 0;
    }
    case K_FLOAT: case K_DOUBLE: {
        double d;
        if (get_double(v, &d) < 0 || buf_reserve(b, 8) < 0) {
            return -1;
        }
        unsigned char *p = (unsigned char *)b->data + b->len;
        if (kind == K_FLOAT) {
            if (pack_float32(d, p) < 0) return -1;
            b->len += 4;
        } else {
            if (PyFloat_Pack8(d, (char *)p, 1) < 0) return -1;
            b->len += 8;
        }
        return 0;
    }
    case K_STRING: {
        if (!PyUnicode_CheckExact(v)) {
            return -1;
        }
        Py_ssize_t n;
        const char *s = str_utf8(v, &n);
        return s == NULL ? -1 : buf_write_delimited(b, s, n);
    }
    case K_BYTES: {
        const char *s;
        Py_ssize_t n;
        return bytes_like(v, &s, &n) < 0 ? -1 : buf_write_delimited(b, s, n);
    }
    case K_MESSAGE: {
        if (vs->sub_native) {
            Plan *sub = (Plan *)vs->sub;
            if (v == Py_None || !plan_usable(sub) || buf_reserve(b, 1) < 0) {
                return -1;
            }
            Py_ssize_t at = buf_open(b);
            if (encode_message(st, sub, v, b, depth + 1) < 0) {
                return -1;
            }
            return buf_close(b, at);
        }
        return write_body(b, encode_callback(st, vs, v));
    }
    case K_TIMESTAMP: case K_DURATION: {
        int done = time_encode(st->datetime_api, kind == K_TIMESTAMP, v, b);
        if (done) {
            return done < 0 ? -1 : 0;
        }
        return write_body(b, PyObject_CallOneArg(vs->helper_encode, v));
    }
    case K_BCL_DATETIME: case K_BCL_TIMESPAN: case K_BCL_DECIMAL: case K_BCL_GUID: {
        int done = bcl_encode(st->datetime_api, vs, v, b);
        if (done) {
            return done < 0 ? -1 : 0;
        }
        return write_body(b, PyObject_CallOneArg(vs->helper_encode, v));  /* the reference */
    }
    default:
        return -1;
    }
}

/* The value of `v` without its tag (packed runs and after a tag): converted first when
 * it travels as another kind (a Decimal as its string, a surrogate as its contract). */
ENGINE_INLINE int write_payload(EngineState *st, const ValueSpec *vs, PyObject *v, Buf *b,
                                 int depth) {
    if (!convert_encodes(vs)) {
        return write_wire_payload(st, vs, v, b, depth);
    }
    PyObject *w = convert_to_wire(st, vs, v);
    if (w == NULL) {
        return -1;
    }
    int r = write_wire_payload(st, vs, w, b, depth);
    Py_DECREF(w);
    return r;
}

static inline int write_tag(Buf *b, const unsigned char *tag, int taglen) {
    if (buf_reserve(b, taglen) < 0) {
        return -1;
    }
    memcpy(b->data + b->len, tag, (size_t)taglen);
    b->len += taglen;
    return 0;
}

static int write_value(EngineState *st, const ValueSpec *vs, const unsigned char *tag,
                       int taglen, PyObject *v, Buf *b, int depth) {
    if (vs->wire_type == WT_SGROUP) return write_group(st, vs, tag, taglen, v, b, depth);
    if (write_tag(b, tag, taglen) < 0) {
        return -1;
    }
    return write_payload(st, vs, v, b, depth);
}

/* A singular field compared with its default: 1 when it must be written, 0 when it
 * equals the default, -1 when the engine cannot tell (Python decides). */
static int differs_from_default(EngineState *st, const Field *f, PyObject *v) {
    const ValueSpec *vs = &f->value;
    switch (vs->kind) {
    case K_BCL_TIMESPAN: case K_BCL_DECIMAL: case K_BCL_GUID:
        /* `v != default`, as the generated encoder compares (Decimal('0.00') is 0) */
        return PyObject_RichCompareBool(v, f->def_obj, Py_NE);
    case K_UINT32: case K_UINT64: case K_FIXED32: case K_FIXED64: {
        uint64_t u;
        if (get_unsigned(v, UINT64_MAX, &u) < 0) return -1;
        return u != f->def_u;
    }
    case K_INT32: case K_INT64: case K_SINT32: case K_SINT64: case K_SFIXED32:
    case K_SFIXED64: {
        int64_t s;
        if (get_signed(v, INT64_MIN, INT64_MAX, &s) < 0) return -1;
        return s != f->def_i;
    }
    case K_ENUM: {
        int64_t s;
        if (get_enum(st, vs, v, &s) < 0) return -1;
        return s != f->def_i;
    }
    case K_BOOL: {
        int d = f->def_bool;
        if (v == Py_True || v == Py_False) {
            return (v == Py_True) != d;
        }
        if (PyLong_CheckExact(v)) {
            int overflow = 0;
            long x = PyLong_AsLongAndOverflow(v, &overflow);
            if (!overflow && (x == 0 || x == 1)) {
                return (x == 1) != d;
            }
        }
        return -1;
    }
    case K_FLOAT: case K_DOUBLE: {
        double d;
        char packed[8];
        if (get_double(v, &d) < 0) return -1;
        if (vs->kind == K_FLOAT) {
            if (pack_float32(d, (unsigned char *)packed) < 0) return -1;
            return memcmp(packed, f->def_fbytes, 4) != 0;
        }
        if (PyFloat_Pack8(d, packed, 1) < 0) return -1;
        return memcmp(packed, f->def_fbytes, 8) != 0;
    }
    case K_STRING: {
        if (!PyUnicode_CheckExact(v)) return -1;
        Py_ssize_t n;
        const char *s = str_utf8(v, &n);
        if (s == NULL) return -1;
        return n != PyBytes_GET_SIZE(f->def_obj)
               || memcmp(s, PyBytes_AS_STRING(f->def_obj), (size_t)n) != 0;
    }
    case K_BYTES: {
        const char *s;
        Py_ssize_t n;
        if (bytes_like(v, &s, &n) < 0) return -1;
        return n != PyBytes_GET_SIZE(f->def_obj)
               || memcmp(s, PyBytes_AS_STRING(f->def_obj), (size_t)n) != 0;
    }
    default:
        return -1;
    }
}

/* A singular converted scalar (Decimal, UUID, date): converted first, then compared
 * with its default in wire form, as the generated encoder does (Decimal('0.0') is not
 * '0'); written unless equal. */
static int encode_converted_default(EngineState *st, const Field *f, PyObject *v, Buf *b,
                                    int depth) {
    PyObject *w = convert_to_wire(st, &f->value, v);
    if (w == NULL) {
        return -1;
    }
    int r = differs_from_default(st, f, w);
    if (r > 0) {
        r = write_tag(b, f->tag, f->taglen);
        if (r == 0) {
            r = write_wire_payload(st, &f->value, w, b, depth);
        }
    }
    Py_DECREF(w);
    return r;
}

static int encode_repeated(EngineState *st, const Field *f, PyObject *v, Buf *b, int depth) {
    if (PyAnySet_CheckExact(v)) {  /* a set field: its items in iteration order, as Python */
        PyObject *items = PySequence_List(v);
        int r = items == NULL ? -1 : encode_repeated(st, f, items, b, depth);
        Py_XDECREF(items);
        return r;
    }
    if (!PyList_CheckExact(v) && !PyTuple_CheckExact(v)) {
        return -1;  /* sets, generators, ...: Python iterates them */
    }
    int is_list = PyList_CheckExact(v);
    Py_ssize_t n = is_list ? PyList_GET_SIZE(v) : PyTuple_GET_SIZE(v);
    if (n == 0) {
        return 0;
    }
    if (f->packed) {
        if (write_tag(b, f->len_tag, f->len_taglen) < 0 || buf_reserve(b, 1) < 0) {
            return -1;
        }
        Py_ssize_t at = buf_open(b);
        for (Py_ssize_t i = 0; i < (is_list ? PyList_GET_SIZE(v) : n); i++) {
            PyObject *x = is_list ? PyList_GET_ITEM(v, i) : PyTuple_GET_ITEM(v, i);
            Py_INCREF(x);
            int r = write_payload(st, &f->value, x, b, depth);
            Py_DECREF(x);
            if (r < 0) {
                return -1;
            }
        }
        return buf_close(b, at);
    }
    /* the list is re-measured each round: a callback may have changed it, as Python sees */
    for (Py_ssize_t i = 0; i < (is_list ? PyList_GET_SIZE(v) : n); i++) {
        PyObject *x = is_list ? PyList_GET_ITEM(v, i) : PyTuple_GET_ITEM(v, i);
        Py_INCREF(x);
        int r = write_value(st, &f->value, f->tag, f->taglen, x, b, depth);
        Py_DECREF(x);
        if (r < 0) {
            return -1;
        }
    }
    return 0;
}

static int encode_map(EngineState *st, const Field *f, PyObject *v, Buf *b, int depth) {
    if (!PyDict_CheckExact(v)) {
        return -1;
    }
    Py_ssize_t size = PyDict_GET_SIZE(v);
    if (size == 0) {
        return 0;
    }
    unsigned char ktag = (unsigned char)(1 << 3 | f->key.wire_type);
    unsigned char vtag = (unsigned char)(2 << 3 | f->value.wire_type);
    Py_ssize_t it = 0;
    PyObject *k, *x;
    while (PyDict_Next(v, &it, &k, &x)) {
        Py_INCREF(k);
        Py_INCREF(x);
        int r = -1;
        if (write_tag(b, f->len_tag, f->len_taglen) == 0 && buf_reserve(b, 1) == 0) {
            Py_ssize_t at = buf_open(b);
            if (write_value(st, &f->key, &ktag, 1, k, b, depth) == 0
                && write_value(st, &f->value, &vtag, 1, x, b, depth + 1) == 0) {
                r = buf_close(b, at);
            }
        }
        Py_DECREF(k);
        Py_DECREF(x);
        if (r < 0 || PyDict_GET_SIZE(v) != size) {
            return -1;  /* changed while we wrote it: Python reports that */
        }
    }
    return 0;
}

/* The bytes of `v` encoded by the codec of a contract the engine does not run
 * (its encode, called back): a new reference to exact bytes, or NULL. */
PyObject *encode_callback(EngineState *st, const ValueSpec *vs, PyObject *v) {
    PyObject *enc = PyObject_GetAttr(vs->sub, st->str_encode);
    if (enc == NULL) {
        return NULL;
    }
    PyObject *body = PyObject_CallOneArg(enc, v);
    Py_DECREF(enc);
    if (body != NULL && !PyBytes_CheckExact(body)) {
        Py_CLEAR(body);
    }
    return body;
}

ENGINE_INLINE int field_body(EngineState *st, const Field *f, PyObject *v, Buf *b, int depth) {
    switch (f->label) {
    case L_REPEATED:
        return encode_repeated(st, f, v, b, depth);
    case L_MAP:
        return encode_map(st, f, v, b, depth);
    default:
        break;
    }
    switch (f->enc_mode) {
    case ENC_PRESENT:
        if (v == Py_None) {
            return 0;
        }
        break;
    case ENC_PRESENT_NOT_NONE:
        if (v == Py_None) {
            return -1;  /* absent would not read back as None: Python raises */
        }
        break;
    case ENC_DEFAULT: {
        if (convert_encodes(&f->value)) return encode_converted_default(st, f, v, b, depth);
        int d = differs_from_default(st, f, v);
        if (d <= 0) {
            return d;
        }
        break;
    }
    default:
        if (v == Py_None && f->value.conv) return -1;  /* required, None: Python refuses it */
        break;
    }
    return write_value(st, &f->value, f->tag, f->taglen, v, b, depth);
}

/* One field of a message (hier.c writes each level's fields through this). */
int encode_field(EngineState *st, const Field *f, PyObject *v, Buf *b, int depth) {
    return field_body(st, f, v, b, depth);
}

/* The unknown fields kept on `obj` under `key`, as the Python codec reads them:
 * obj.__dict__.get(key) when they live in the instance dict (`dict`, if not NULL, is
 * that dict, borrowed), else get_unknown(obj, key).  0 with `*out` a new reference to
 * non-empty bytes, or NULL when there are none; -1 on failure (anything but bytes or
 * None is one: the Python codec then says what it makes of it). */
int unknown_of(EngineState *st, PyObject *obj, PyObject *dict, int in_dict,
               PyObject *get_unknown, PyObject *key, PyObject **out) {
    *out = NULL;
    PyObject *u;
    if (in_dict) {
        PyObject *d = dict;
        if (d == NULL) {
            d = PyObject_GetAttr(obj, st->str_dict);
            if (d == NULL) {
                return -1;
            }
        } else {
            Py_INCREF(d);
        }
        if (!PyDict_CheckExact(d)) {
            Py_DECREF(d);
            return -1;
        }
        u = PyDict_GetItemWithError(d, key);
        Py_XINCREF(u);
        Py_DECREF(d);
        if (u == NULL) {
            return PyErr_Occurred() ? -1 : 0;
        }
    } else {
        PyObject *args[2] = {obj, key};
        u = PyObject_Vectorcall(get_unknown, args, 2, NULL);
        if (u == NULL) {
            return -1;
        }
    }
    if (u == Py_None || (PyBytes_CheckExact(u) && PyBytes_GET_SIZE(u) == 0)) {
        Py_DECREF(u);
        return 0;
    }
    if (!PyBytes_CheckExact(u)) {
        Py_DECREF(u);
        return -1;
    }
    *out = u;
    return 0;
}

/* The value of field `f` in the instance dict (borrowed; NULL: not there, or an
 * error).  Instances built by __init__ or the decoder hold their fields in field
 * order, which is mostly the plan's: while the dict's next entry is this field's
 * name (interned: a pointer compare), it is taken without hashing. */
static PyObject *dict_field(PyObject *dict, const Field *f, Py_ssize_t *cursor, int *in_order) {
    if (*in_order) {
        PyObject *k, *v;
        if (PyDict_Next(dict, cursor, &k, &v) && k == f->name) {
            return v;
        }
        *in_order = 0;
    }
    return PyDict_GetItemWithError(dict, f->name);
}

int encode_message(EngineState *st, Plan *plan, PyObject *obj, Buf *b, int depth) {
    if (stack_low()) return -1;  /* the thread's C stack is nearly used up */
    if (depth > NATIVE_MAX_DEPTH) {  /* final (module.c): the model names the path */
        PyErr_Format(st->encode_too_deep, "%s: nested deeper than %d levels (a cycle?)",
                     Py_TYPE(obj)->tp_name, NATIVE_MAX_DEPTH);
        return -1;
    }
    if (hier_is_multi(plan)) return hier_encode(st, plan, obj, b, depth);
    if (!plan_usable(plan)) {
        return -1;
    }
    PyObject *dict = NULL;
    if (plan->use_dict && Py_TYPE(obj) == (PyTypeObject *)plan->cls) {
        dict = PyObject_GenericGetDict(obj, NULL);
        if (dict == NULL) {
            return -1;
        }
    }
    int r = 0;
    Py_ssize_t in_dict = 0;
    unsigned char oneof_set[MAX_ONEOFS + 1] = {0};
    Py_ssize_t cursor = 0;
    int in_order = 1;
    for (Py_ssize_t i = 0; i < plan->nfields && r == 0; i++) {
        const Field *f = &plan->fields[i];
        PyObject *v = NULL;
        if (dict != NULL) {
            v = dict_field(dict, f, &cursor, &in_order);
            if (v != NULL) {
                Py_INCREF(v);  /* held: a callback below may change the dict */
                in_dict++;
            } else if (PyErr_Occurred()) {
                r = -1;
                break;
            }
        }
        if (v == NULL) {
            v = PyObject_GetAttr(obj, f->name);
            if (v == NULL) {
                r = -1;
                break;
            }
        }
        if (f->oneof && v != Py_None && oneof_set[f->oneof]++) {
            r = -1;  /* two members of one oneof set: Python names them in its error */
        } else {
            r = field_body(st, f, v, b, depth);
        }
        Py_DECREF(v);
    }
    /* a __dict__ holding exactly the fields has no unknown-field entry: no lookup */
    int no_unknown = dict != NULL && in_dict == plan->nfields
                     && PyDict_GET_SIZE(dict) == plan->nfields;
    if (r == 0 && plan->unknown_key != NULL && !no_unknown) {
        PyObject *u;
        r = unknown_of(st, obj, dict, plan->unknown_in_dict, plan->get_unknown,
                       plan->unknown_key, &u);
        if (r == 0 && u != NULL) {
            r = buf_write(b, PyBytes_AS_STRING(u), PyBytes_GET_SIZE(u));
            Py_DECREF(u);
        }
    }
    Py_XDECREF(dict);
    return r;
}

PyObject *engine_encode(EngineState *st, Plan *plan, PyObject *obj) {
    Buf b;
    buf_init(&b);
    PyObject *out = NULL;
    if (encode_message(st, plan, obj, &b, 0) == 0) {
        out = PyBytes_FromStringAndSize(b.data, b.len);
    }
    buf_free(&b);
    return out;
}

PyObject *engine_encode_list(EngineState *st, Plan *plan, PyObject *items) {
    if (!PyList_CheckExact(items) && !PyTuple_CheckExact(items)) {
        return NULL;  /* any other iterable: the Python list codec */
    }
    int is_list = PyList_CheckExact(items);
    Buf b;
    buf_init(&b);
    PyObject *out = NULL;
    Py_ssize_t i = 0;
    for (; i < (is_list ? PyList_GET_SIZE(items) : PyTuple_GET_SIZE(items)); i++) {
        PyObject *x = is_list ? PyList_GET_ITEM(items, i) : PyTuple_GET_ITEM(items, i);
        Py_INCREF(x);
        int r = -1;
        if (buf_reserve(&b, 2) == 0) {
            b.data[b.len++] = 0x0a;
            Py_ssize_t at = buf_open(&b);
            if (encode_message(st, plan, x, &b, 1) == 0) {
                r = buf_close(&b, at);
            }
        }
        Py_DECREF(x);
        if (r < 0) {
            goto done;
        }
    }
    out = PyBytes_FromStringAndSize(b.data, b.len);
done:
    buf_free(&b);
    return out;
}
