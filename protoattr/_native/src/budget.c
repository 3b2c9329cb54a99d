/* The message budget of one decode (see budget.h). */
#include "budget.h"

/* BUDGET.left as an int64 (-1 with an error when it is not an int). */
static int read_left(const Plan *plan, int64_t *out) {
    PyObject *v = PyObject_GetAttr(plan->budget, plan->budget_name);
    if (v == NULL) {
        return -1;
    }
    long long x = PyLong_AsLongLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = (int64_t)x;
    return 0;
}

/* BUDGET.left = value, keeping a pending exception (the generated decoders read it). */
static int write_left(const Plan *plan, PyObject *value) {
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    int r = PyObject_SetAttr(plan->budget, plan->budget_name, value);
    if (type != NULL) {
        if (r < 0) {
            PyErr_Clear();
        }
        PyErr_Restore(type, exc, tb);
    }
    return r;
}

static int write_count(const Plan *plan, int64_t n) {
    PyObject *v = PyLong_FromLongLong((long long)n);
    if (v == NULL) {
        return -1;
    }
    int r = write_left(plan, v);
    Py_DECREF(v);
    return r;
}

int ctx_start(Ctx *c, EngineState *st, Plan *plan, PyObject *buf, int nested) {
    c->st = st;
    c->bufobj = buf;
    c->base = (const unsigned char *)PyBytes_AS_STRING(buf);
    c->max_depth = plan->max_depth;
    c->budget = INT64_MAX;
    c->bounded = NULL;
    c->nested = nested;
    c->pend = NULL;
    c->merges = 0;
    if (plan->max_messages <= 0) {
        return 0;
    }
    c->bounded = plan;
    if (!nested) {
        c->budget = (int64_t)plan->max_messages;
        return 0;
    }
    return read_left(plan, &c->budget);
}

void ctx_finish(Ctx *c, const PyObject *out) {
    if (c->bounded != NULL && c->nested && (out != NULL || c->budget < 0)) {
        write_count(c->bounded, c->budget);
    }
}

int budget_exceeded(Ctx *c, const Plan *plan, const unsigned char *p) {
    c->budget = -1;  /* stays crossed: whatever runs on in this decode stops too */
    if (PyErr_Occurred()) {
        return -1;  /* raised already (by a Python codec this decode called) */
    }
    const Plan *b = c->bounded;
    if (b == NULL) {
        PyErr_SetString(PyExc_SystemError, "protoattr: message budget without a bound");
        return -1;
    }
    /* the offset where this message's fields begin; an empty message standing for an
     * absent field has none in the input: 0, as the Python codec decodes it from b'' */
    Py_ssize_t size = PyBytes_GET_SIZE(c->bufobj);
    Py_ssize_t pos = (p >= c->base && p <= c->base + size) ? p - c->base : 0;
    PyObject *name = PyObject_GetAttrString(plan->cls, "__qualname__");
    PyObject *max = PyLong_FromSsize_t(b->max_messages);
    PyObject *at = PyLong_FromSsize_t(pos);
    PyObject *err = NULL;
    if (name && max && at) {
        PyObject *args[3] = {name, max, at};
        err = PyObject_Vectorcall(b->too_many, args, 3, NULL);
    }
    Py_XDECREF(name);
    Py_XDECREF(max);
    Py_XDECREF(at);
    if (err != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(err), err);
        Py_DECREF(err);
    }
    return -1;
}

int budget_lend(Ctx *c, PyObject **saved) {
    *saved = NULL;
    if (c->bounded == NULL) {
        return 0;
    }
    *saved = PyObject_GetAttr(c->bounded->budget, c->bounded->budget_name);
    if (*saved == NULL || write_count(c->bounded, c->budget) < 0) {
        Py_CLEAR(*saved);
        return -1;
    }
    return 0;
}

int budget_back(Ctx *c, PyObject *saved) {
    if (c->bounded == NULL) {
        return 0;
    }
    int64_t left = -1;
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);  /* the call-back's error, if any, stays */
    int r = read_left(c->bounded, &left);
    if (r < 0) {
        PyErr_Clear();
    }
    PyErr_Restore(type, exc, tb);
    if (saved != NULL) {
        write_left(c->bounded, saved);
        Py_DECREF(saved);
    }
    if (r < 0) {
        return -1;
    }
    c->budget = left;
    return left < 0 ? -1 : 0;
}
