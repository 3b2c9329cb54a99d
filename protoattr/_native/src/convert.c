/* Converted types and surrogates (see convert.h).
 *
 * Each shortcut below does exactly what the Python converter in
 * protoattr/_core/convert.py does for the exact type it tests; any other value
 * goes through that converter itself, so a subclass, a duck-typed value or a
 * user's surrogate function behaves as under the Python backend.
 */
#include "convert.h"
#include "timefmt.h"

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
        /* (("bytes",), "int", "is_safe", SafeUUID.unknown, uuid.UUID) */
        PyObject *mod = PyImport_ImportModule("uuid");
        PyObject *safe = mod ? PyObject_GetAttrString(mod, "SafeUUID") : NULL;
        PyObject *unknown = safe ? PyObject_GetAttrString(safe, "unknown") : NULL;
        PyObject *cls = mod ? PyObject_GetAttrString(mod, "UUID") : NULL;
        if (unknown != NULL && cls != NULL) {
            v->conv_aux = Py_BuildValue("((s)ssOO)", "bytes", "int", "is_safe", unknown, cls);
        }
        Py_XDECREF(mod);
        Py_XDECREF(safe);
        Py_XDECREF(unknown);
        Py_XDECREF(cls);
        if (v->conv_aux == NULL) {
            return -1;
        }
    }
    return 0;
}

/* -- UUIDs: uuid.UUID's own steps, for the exact class only --------------------- */

#define AUX_KWNAMES 0
#define AUX_INT 1
#define AUX_IS_SAFE 2
#define AUX_UNKNOWN 3
#define AUX_UUID 4

static int is_uuid_class(const ValueSpec *vs) {
    return vs->domain == PyTuple_GET_ITEM(vs->conv_aux, AUX_UUID);
}

/* UUID(hex=...) / UUID(bytes=...) of 32 hex digits: the 128-bit int, then what
 * UUID.__init__ ends with: object.__setattr__ of `int` and `is_safe` (unknown). */
static PyObject *uuid_from_hex(const ValueSpec *vs, const char *hex32) {
    char digits[33];
    memcpy(digits, hex32, 32);
    digits[32] = '\0';
    PyObject *n = PyLong_FromString(digits, NULL, 16);
    if (n == NULL) {
        return NULL;
    }
    PyTypeObject *tp = (PyTypeObject *)vs->domain;
    PyObject *u = tp->tp_alloc(tp, 0);  /* object.__new__(UUID) */
    if (u == NULL
        || PyObject_GenericSetAttr(u, PyTuple_GET_ITEM(vs->conv_aux, AUX_INT), n) < 0
        || PyObject_GenericSetAttr(u, PyTuple_GET_ITEM(vs->conv_aux, AUX_IS_SAFE),
                                   PyTuple_GET_ITEM(vs->conv_aux, AUX_UNKNOWN)) < 0) {
        Py_XDECREF(u);
        u = NULL;
    }
    Py_DECREF(n);
    return u;
}

static int is_hex(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The canonical 8-4-4-4-12 form only (UUID() also takes braces, "urn:uuid:", no
 * dashes, ...: those go through UUID() itself). 0: not taken. */
static PyObject *uuid_from_text(const ValueSpec *vs, PyObject *text, int *taken) {
    *taken = 0;
    if (!PyUnicode_IS_ASCII(text) || PyUnicode_GET_LENGTH(text) != 36) {
        return NULL;
    }
    const unsigned char *s = PyUnicode_1BYTE_DATA(text);
    char hex[32];
    int j = 0;
    for (int i = 0; i < 36; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (s[i] != '-') return NULL;
        } else if (is_hex(s[i])) {
            hex[j++] = (char)s[i];
        } else {
            return NULL;
        }
    }
    *taken = 1;
    return uuid_from_hex(vs, hex);
}

static PyObject *uuid_from_bytes(const ValueSpec *vs, PyObject *data) {
    static const char digits[] = "0123456789abcdef";
    const unsigned char *b = (const unsigned char *)PyBytes_AS_STRING(data);
    char hex[32];
    for (int i = 0; i < 16; i++) {
        hex[2 * i] = digits[b[i] >> 4];
        hex[2 * i + 1] = digits[b[i] & 15];
    }
    return uuid_from_hex(vs, hex);
}

/* str(UUID): '%032x' % self.int cut 8-4-4-4-12, as UUID.__str__ does. NULL with
 * *taken = 0 when the int's digits are not 32 (then str() itself). */
static PyObject *uuid_to_text(const ValueSpec *vs, PyObject *u, int *taken) {
    *taken = 1;
    PyObject *n = PyObject_GetAttr(u, PyTuple_GET_ITEM(vs->conv_aux, AUX_INT));
    if (n == NULL) {
        return NULL;
    }
    PyObject *hex = NULL;
    if (PyLong_CheckExact(n)) {
        PyObject *spec = PyUnicode_FromString("032x");
        hex = spec ? PyObject_Format(n, spec) : NULL;
        Py_XDECREF(spec);
    }
    Py_DECREF(n);
    if (hex == NULL || !PyUnicode_IS_ASCII(hex) || PyUnicode_GET_LENGTH(hex) != 32) {
        Py_XDECREF(hex);
        PyErr_Clear();
        *taken = 0;
        return NULL;
    }
    const char *h = (const char *)PyUnicode_1BYTE_DATA(hex);
    PyObject *out = PyUnicode_New(36, 127);
    if (out != NULL) {
        char *o = (char *)PyUnicode_1BYTE_DATA(out);
        memcpy(o, h, 8);
        o[8] = '-';
        memcpy(o + 9, h + 8, 4);
        o[13] = '-';
        memcpy(o + 14, h + 12, 4);
        o[18] = '-';
        memcpy(o + 19, h + 16, 4);
        o[23] = '-';
        memcpy(o + 24, h + 20, 12);
    }
    Py_DECREF(hex);
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
    case CONV_UUID_BYTES:
        /* uuid_to_bytes: value.bytes, for any value */
        return PyObject_GetAttr(v, PyTuple_GET_ITEM(PyTuple_GET_ITEM(vs->conv_aux, AUX_KWNAMES), 0));
    case CONV_DATE: {
        PyDateTime_CAPI *api = st->datetime_api;
        if (api != NULL && Py_TYPE(v) == api->DateType) {  /* an exact date, not a datetime */
            int64_t days = days_from_civil(PyDateTime_GET_YEAR(v), PyDateTime_GET_MONTH(v),
                                           PyDateTime_GET_DAY(v));
            return PyLong_FromLongLong((long long)(days + EPOCH_DAYS));
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
                out = uuid_from_bytes(vs, x);
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
    default:
        out = PyObject_CallOneArg(vs->from_wire, x);
        break;
    }
    Py_DECREF(x);
    return out;
}
