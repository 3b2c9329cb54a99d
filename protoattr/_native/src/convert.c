/* Converted types and surrogates (see convert.h).
 *
 * Each shortcut below does exactly what the Python converter in
 * protoattr/_convert.py does for the exact type it tests; any other value
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
    if (v->conv == CONV_UUID_BYTES) {
        v->conv_aux = Py_BuildValue("(s)", "bytes");
        if (v->conv_aux == NULL) {
            return -1;
        }
    }
    return 0;
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
    case CONV_DECIMAL: case CONV_UUID_STR:
        /* decimal_to_str / uuid_to_str: an instance check, then str() */
        if (Py_TYPE(v) == (PyTypeObject *)vs->domain) {
            return PyObject_Str(v);
        }
        break;
    case CONV_UUID_BYTES:
        /* uuid_to_bytes: value.bytes, for any value */
        return PyObject_GetAttr(v, PyTuple_GET_ITEM(vs->conv_aux, 0));
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
    case CONV_DECIMAL: case CONV_UUID_STR:
        /* str_to_decimal / str_to_uuid: the class called on the text (an error: Python's) */
        out = PyObject_CallOneArg(vs->domain, x);
        break;
    case CONV_UUID_BYTES:
        /* bytes_to_uuid: 16 bytes, then UUID(bytes=data) */
        if (PyBytes_CheckExact(x) && PyBytes_GET_SIZE(x) == 16) {
            PyObject *args[1] = {x};
            out = PyObject_Vectorcall(vs->domain, args, 0, vs->conv_aux);
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
