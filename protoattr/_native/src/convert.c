/* Converted types and surrogates (see convert.h).
 *
 * Each shortcut below does exactly what the Python converter in
 * protoattr/_core/convert.py does for the exact type it tests; any other value
 * goes through that converter itself, so a subclass, a duck-typed value or a
 * user's surrogate function behaves as under the Python backend.
 */
#include "convert.h"
#include "timefmt.h"
#include "bcl.h"

/* date.toordinal() - 1 == days_from_civil(...) + EPOCH_DAYS (0001-01-01 is day 0). */
#define EPOCH_DAYS 719162
#define MAX_DAY 3652058 /* 9999-12-31 */

static PyObject *opt(PyObject *o) {
    if (o == Py_None) {
        return NULL;
    }
    Py_INCREF(o);
    return o;
}

/* uuid.UUID's class and slots in v->conv_aux (UUIDs as strings or bytes, bcl.Guid):
 * (("bytes",), "int", "is_safe", SafeUUID.unknown, uuid.UUID, its `int` and `is_safe`
 * member descriptors or None) */
int convert_uuid_setup(ValueSpec *v) {
    PyObject *mod = PyImport_ImportModule("uuid");
    PyObject *safe = mod ? PyObject_GetAttrString(mod, "SafeUUID") : NULL;
    PyObject *unknown = safe ? PyObject_GetAttrString(safe, "unknown") : NULL;
    PyObject *cls = mod ? PyObject_GetAttrString(mod, "UUID") : NULL;
    if (unknown != NULL && cls != NULL && PyType_Check(cls)) {
        /* UUID's slots: object.__setattr__ finds these member descriptors first */
        PyObject *dict = ((PyTypeObject *)cls)->tp_dict;
        PyObject *d_int = dict ? PyDict_GetItemString(dict, "int") : NULL;
        PyObject *d_safe = dict ? PyDict_GetItemString(dict, "is_safe") : NULL;
        if (d_int == NULL || !Py_IS_TYPE(d_int, &PyMemberDescr_Type) || d_safe == NULL
            || !Py_IS_TYPE(d_safe, &PyMemberDescr_Type)) {
            d_int = d_safe = Py_None;  /* another layout: set by name */
        }
        v->conv_aux = Py_BuildValue("((s)ssOOOO)", "bytes", "int", "is_safe", unknown, cls,
                                    d_int, d_safe);
    }
    Py_XDECREF(mod);
    Py_XDECREF(safe);
    Py_XDECREF(unknown);
    Py_XDECREF(cls);
    if (v->conv_aux == NULL) {
        return -1;
    }
    return 0;
}

int convert_setup(ValueSpec *v, PyObject *spec, Py_ssize_t at) {
    long conv = PyLong_AsLong(PyTuple_GET_ITEM(spec, at));
    if (conv == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (conv < CONV_NONE || conv >= CONV_LAST) {
        PyErr_SetString(PyExc_ValueError, "plan: unknown conversion");
        return -1;
    }
    v->conv = (int)conv;
    v->to_wire = opt(PyTuple_GET_ITEM(spec, at + 1));
    v->from_wire = opt(PyTuple_GET_ITEM(spec, at + 2));
    v->domain = opt(PyTuple_GET_ITEM(spec, at + 3));
    if (v->conv == CONV_NONE) {
        if (v->to_wire || v->from_wire) {
            PyErr_SetString(PyExc_ValueError, "plan: converters without a conversion");
            return -1;
        }
        return 0;
    }
    int needs_domain = v->conv >= CONV_DECIMAL;
    if (v->from_wire == NULL || (needs_domain && (v->domain == NULL || !PyType_Check(v->domain)))) {
        PyErr_SetString(PyExc_ValueError, "plan: a conversion needs its converters and type");
        return -1;
    }
    if (v->conv == CONV_UUID_STR || v->conv == CONV_UUID_BYTES) {
        return convert_uuid_setup(v);
    }
    return 0;
}

/* -- UUIDs: uuid.UUID's own steps, for the exact class only --------------------- */

#define AUX_KWNAMES 0
#define AUX_INT 1
#define AUX_IS_SAFE 2
#define AUX_UNKNOWN 3
#define AUX_UUID 4
#define AUX_INT_SLOT 5
#define AUX_IS_SAFE_SLOT 6

/* object.__setattr__(u, name, value) for one of UUID's slots */
static int set_slot(const ValueSpec *vs, PyObject *u, int name, int slot, PyObject *value) {
    PyObject *descr = PyTuple_GET_ITEM(vs->conv_aux, slot);
    if (descr != Py_None) {
        return Py_TYPE(descr)->tp_descr_set(descr, u, value);
    }
    return PyObject_GenericSetAttr(u, PyTuple_GET_ITEM(vs->conv_aux, name), value);
}

static int is_uuid_class(const ValueSpec *vs) {
    return vs->domain == PyTuple_GET_ITEM(vs->conv_aux, AUX_UUID);
}

/* The 16 big-endian bytes of an int in [0, 2**128): -1 (no exception) for any other. */
static int int_to_16_bytes(PyObject *n, unsigned char *out) {
    if (!PyLong_CheckExact(n)) {
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(n, out, 16, Py_ASNATIVEBYTES_BIG_ENDIAN
                                           | Py_ASNATIVEBYTES_UNSIGNED_BUFFER
                                           | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (need < 0 || need > 16) {
        PyErr_Clear();
        return -1;
    }
#else
    if (_PyLong_AsByteArray((PyLongObject *)n, out, 16, 0, 0) < 0) {
        PyErr_Clear();  /* negative, or 2**128 and more */
        return -1;
    }
#endif
    return 0;
}

static PyObject *int_from_16_bytes(const unsigned char *b) {
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(b, 16, Py_ASNATIVEBYTES_BIG_ENDIAN);
#else
    return _PyLong_FromByteArray(b, 16, 0, 0);
#endif
}

/* 0..15 for an ASCII hex digit, 16 for anything else */
static unsigned char hex_value(unsigned char c) {
    if (c >= '0' && c <= '9') return (unsigned char)(c - '0');
    c |= 0x20;
    if (c >= 'a' && c <= 'f') return (unsigned char)(c - 'a' + 10);
    return 16;
}

/* UUID(hex=...) / UUID(bytes=...) of 16 bytes: the 128-bit int, then what
 * UUID.__init__ ends with: object.__setattr__ of `int` and `is_safe` (unknown). */
static PyObject *uuid_from_16(const ValueSpec *vs, const unsigned char *b16) {
    PyObject *n = int_from_16_bytes(b16);
    if (n == NULL) {
        return NULL;
    }
    PyTypeObject *tp = (PyTypeObject *)vs->domain;
    PyObject *u = tp->tp_alloc(tp, 0);  /* object.__new__(UUID) */
    if (u == NULL || set_slot(vs, u, AUX_INT, AUX_INT_SLOT, n) < 0
        || set_slot(vs, u, AUX_IS_SAFE, AUX_IS_SAFE_SLOT,
                    PyTuple_GET_ITEM(vs->conv_aux, AUX_UNKNOWN)) < 0) {
        Py_XDECREF(u);
        u = NULL;
    }
    Py_DECREF(n);
    return u;
}

/* The canonical 8-4-4-4-12 form only (UUID() also takes braces, "urn:uuid:", no
 * dashes, ...: those go through UUID() itself). 0: not taken. */
static PyObject *uuid_from_text(const ValueSpec *vs, PyObject *text, int *taken) {
    *taken = 0;
    if (!PyUnicode_IS_ASCII(text) || PyUnicode_GET_LENGTH(text) != 36) {
        return NULL;
    }
    const unsigned char *s = PyUnicode_1BYTE_DATA(text);
    if (s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-') {
        return NULL;
    }
    static const unsigned char at[16] = {0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34};
    unsigned char b16[16];
    for (int i = 0; i < 16; i++) {
        unsigned char hi = hex_value(s[at[i]]), lo = hex_value(s[at[i] + 1]);
        if ((hi | lo) & 16) {
            return NULL;
        }
        b16[i] = (unsigned char)(hi << 4 | lo);
    }
    *taken = 1;
    return uuid_from_16(vs, b16);
}

/* The 16 bytes of an exact UUID's `int` (what UUID.bytes returns); 0: not taken (no
 * exception: an int outside [0, 2**128), which Python reports its own way). */
static int uuid_bytes_of(const ValueSpec *vs, PyObject *u, unsigned char *b16, int *taken) {
    *taken = 0;
    PyObject *descr = PyTuple_GET_ITEM(vs->conv_aux, AUX_INT_SLOT);
    PyObject *n = descr != Py_None
                      ? Py_TYPE(descr)->tp_descr_get(descr, u, (PyObject *)Py_TYPE(u))
                      : PyObject_GetAttr(u, PyTuple_GET_ITEM(vs->conv_aux, AUX_INT));
    if (n == NULL) {
        PyErr_Clear();
        return 0;
    }
    *taken = int_to_16_bytes(n, b16) == 0;
    Py_DECREF(n);
    return 0;
}

/* str(UUID): '%032x' % self.int cut 8-4-4-4-12, as UUID.__str__ does. *taken = 0
 * when the int is not one of 32 hex digits (then str() itself). */
static PyObject *uuid_to_text(const ValueSpec *vs, PyObject *u, int *taken) {
    static const char digits[] = "0123456789abcdef";
    unsigned char b16[16];
    uuid_bytes_of(vs, u, b16, taken);
    if (!*taken) {
        return NULL;
    }
    PyObject *out = PyUnicode_New(36, 127);
    if (out != NULL) {
        char *o = (char *)PyUnicode_1BYTE_DATA(out);
        for (int i = 0, k = 0; i < 16; i++) {
            if (k == 8 || k == 13 || k == 18 || k == 23) {
                o[k++] = '-';
            }
            o[k++] = digits[b16[i] >> 4];
            o[k++] = digits[b16[i] & 15];
        }
    }
    return out;
}

void convert_clear(ValueSpec *v) {
    Py_CLEAR(v->to_wire);
    Py_CLEAR(v->from_wire);
    Py_CLEAR(v->domain);
    Py_CLEAR(v->conv_aux);
}

int convert_traverse(ValueSpec *v, visitproc visit, void *arg) {
    Py_VISIT(v->to_wire);
    Py_VISIT(v->from_wire);
    Py_VISIT(v->domain);
    Py_VISIT(v->conv_aux);
    return 0;
}

PyObject *convert_to_wire(EngineState *st, const ValueSpec *vs, PyObject *v) {
    switch (vs->conv) {
    case CONV_DECIMAL:
        /* decimal_to_str: an instance check, then str() */
        if (Py_TYPE(v) == (PyTypeObject *)vs->domain) {
            return PyObject_Str(v);
        }
        break;
    case CONV_UUID_STR:
        /* uuid_to_str: an instance check, then str() (UUID.__str__'s steps, in C) */
        if (Py_TYPE(v) == (PyTypeObject *)vs->domain) {
            int taken = 0;
            PyObject *text = is_uuid_class(vs) ? uuid_to_text(vs, v, &taken) : NULL;
            return taken ? text : PyObject_Str(v);
        }
        break;
    case CONV_UUID_BYTES: {
        /* uuid_to_bytes: value.bytes (for the exact UUID: self.int.to_bytes(16)) */
        if (Py_TYPE(v) == (PyTypeObject *)vs->domain && is_uuid_class(vs)) {
            unsigned char b16[16];
            int taken;
            uuid_bytes_of(vs, v, b16, &taken);
            if (taken) {
                return PyBytes_FromStringAndSize((const char *)b16, 16);
            }
        }
        PyObject *name = PyTuple_GET_ITEM(PyTuple_GET_ITEM(vs->conv_aux, AUX_KWNAMES), 0);
        return PyObject_GetAttr(v, name);
    }
    case CONV_DATE: {
        PyDateTime_CAPI *api = st->datetime_api;
        if (api != NULL && Py_TYPE(v) == api->DateType) {  /* an exact date, not a datetime */
            int64_t days = days_from_civil(PyDateTime_GET_YEAR(v), PyDateTime_GET_MONTH(v),
                                           PyDateTime_GET_DAY(v));
            return PyLong_FromLongLong((long long)(days + EPOCH_DAYS));
        }
        break;
    }
    case CONV_DATETIME_TICKS: case CONV_TIMESPAN_TICKS: {
        /* datetime_to_ticks / timedelta_to_ticks for exact naive/UTC values (bcl.c) */
        int64_t ticks;
        if (bcl_ticks_of(st->datetime_api, vs->conv == CONV_DATETIME_TICKS, v, &ticks)) {
            return PyLong_FromLongLong((long long)ticks);
        }
        break;
    }
    default:
        break;
    }
    if (vs->to_wire == NULL) {
        Py_INCREF(v);
        return v;
    }
    return PyObject_CallOneArg(vs->to_wire, v);
}

PyObject *convert_from_wire(EngineState *st, const ValueSpec *vs, PyObject *x) {
    if (x == NULL || vs->conv == CONV_NONE) {
        return x;
    }
    PyObject *out = NULL;
    switch (vs->conv) {
    case CONV_FLAG: {
        /* `flag(x) if x >= 0 else x`; a member found in the enum table is flag(x) already */
        if (!PyLong_CheckExact(x)) {
            return x;
        }
        long n = PyLong_AsLong(x);
        if (n == -1 && PyErr_Occurred()) {
            break;
        }
        if (n < 0) {
            return x;
        }
        out = PyObject_CallOneArg(vs->from_wire, x);
        break;
    }
    case CONV_BYTEARRAY:
        if (PyBytes_CheckExact(x)) {
            out = PyByteArray_FromStringAndSize(PyBytes_AS_STRING(x), PyBytes_GET_SIZE(x));
        }
        break;
    case CONV_DECIMAL:
        /* str_to_decimal: the class called on the text (an error: Python's) */
        out = PyObject_CallOneArg(vs->domain, x);
        break;
    case CONV_UUID_STR: {
        /* str_to_uuid: UUID(text); the canonical form parsed here */
        int taken = 0;
        if (PyUnicode_CheckExact(x) && is_uuid_class(vs)) {
            out = uuid_from_text(vs, x, &taken);
        }
        if (!taken) {
            out = PyObject_CallOneArg(vs->domain, x);
        }
        break;
    }
    case CONV_UUID_BYTES:
        /* bytes_to_uuid: 16 bytes, then UUID(bytes=data) */
        if (PyBytes_CheckExact(x) && PyBytes_GET_SIZE(x) == 16) {
            if (is_uuid_class(vs)) {
                out = uuid_from_16(vs, (const unsigned char *)PyBytes_AS_STRING(x));
            } else {
                PyObject *args[1] = {x};
                out = PyObject_Vectorcall(vs->domain, args, 0,
                                          PyTuple_GET_ITEM(vs->conv_aux, AUX_KWNAMES));
            }
        }
        break;
    case CONV_DATE: {
        /* days_to_date: within 0001-01-01..9999-12-31, then date.fromordinal(days + 1) */
        PyDateTime_CAPI *api = st->datetime_api;
        if (api == NULL || !PyLong_CheckExact(x)) {
            break;
        }
        long days = PyLong_AsLong(x);
        if (days < 0 || days > MAX_DAY) {
            break;  /* out of range (or an error): Python raises its ConversionError */
        }
        int y, m, d;
        civil_from_days((int64_t)days - EPOCH_DAYS, &y, &m, &d);
        out = api->Date_FromDate(y, m, d, api->DateType);
        break;
    }
    case CONV_DATETIME_TICKS: case CONV_TIMESPAN_TICKS: {
        /* ticks_to_datetime / ticks_to_timedelta; anything unusual: NULL, Python decides */
        int overflow = 0;
        long long t = PyLong_CheckExact(x) ? PyLong_AsLongLongAndOverflow(x, &overflow) : 0;
        if (PyLong_CheckExact(x) && !overflow && !(t == -1 && PyErr_Occurred())) {
            out = bcl_of_ticks(st->datetime_api, vs->conv == CONV_DATETIME_TICKS, (int64_t)t);
        }
        PyErr_Clear();
        break;
    }
    default:
        out = PyObject_CallOneArg(vs->from_wire, x);
        break;
    }
    Py_DECREF(x);
    return out;
}

/* For bcl.c: the 16 bytes of an exact UUID (1), or 0: not taken. */
int convert_uuid_bytes(const ValueSpec *vs, PyObject *u, unsigned char *b16) {
    int taken = 0;
    if (vs->conv_aux != NULL && is_uuid_class(vs)) {
        uuid_bytes_of(vs, u, b16, &taken);
    }
    return taken;
}

/* For bcl.c: the UUID of 16 big-endian bytes. */
PyObject *convert_uuid_from_16(const ValueSpec *vs, const unsigned char *b16) {
    return uuid_from_16(vs, b16);
}
