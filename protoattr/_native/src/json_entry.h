/* What the two JSON entry points (JsonEntry in json_write.c, JsonReadEntry in
 * json_read.c) have in common: the fields they begin with, and the functions that see only
 * those fields.  Each entry point shadows one TypeModel method (to_json / from_json) and
 * falls back to it, so its introspection, repr and reference handling are the same. */
#ifndef PROTOATTR_JSON_ENTRY_H
#define PROTOATTR_JSON_ENTRY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

/* The first fields of either entry point, in this order (a struct that starts with them can
 * be seen as a JsonEntryHead, as any object can be seen as a PyObject). */
#define JSON_ENTRY_FIELDS                                                                   \
    PyObject_HEAD                                                                           \
    vectorcallfunc vectorcall;                                                              \
    PyObject *model_dict; /* vars(model) */                                                 \
    PyObject *slow;       /* the shadowed Python method, bound to the model */              \
    PyObject *plans;      /* the _json_plans object the tables belong to, or NULL */        \
    PyObject *tables;     /* the dicts {cls: JsonWriter/JsonReader or None}, by options */ \
    PyObject *str_plans;  /* "_json_plans", interned */

typedef struct {
    JSON_ENTRY_FIELDS
} JsonEntryHead;

/* tp_new's common part: `name(model_dict, slow)`, positional only; NULL on error. */
static inline JsonEntryHead *json_entry_new(PyTypeObject *type, PyObject *args, PyObject *kwds,
                                            const char *name, const char *format,
                                            vectorcallfunc call) {
    PyObject *model_dict, *slow;
    if (kwds != NULL && PyDict_GET_SIZE(kwds) != 0) {
        PyErr_Format(PyExc_TypeError, "%s takes positional arguments", name);
        return NULL;
    }
    if (!PyArg_ParseTuple(args, format, &PyDict_Type, &model_dict, &slow)) {
        return NULL;
    }
    JsonEntryHead *self = (JsonEntryHead *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = call;
    self->model_dict = Py_NewRef(model_dict);
    self->slow = Py_NewRef(slow);
    self->str_plans = PyUnicode_InternFromString("_json_plans");
    if (self->str_plans == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return self;
}

/* help(), inspect.signature(), __doc__, __self__ (the model)...: the Python method's */
static inline PyObject *json_entry_wrapped(PyObject *self, void *closure) {
    PyObject *slow = ((JsonEntryHead *)self)->slow;
    if (slow == NULL) {
        Py_RETURN_NONE;
    }
    return Py_NewRef(slow);
}

static inline PyObject *json_entry_attr_of_slow(PyObject *self, void *closure) {
    PyObject *slow = ((JsonEntryHead *)self)->slow;
    if (slow == NULL) {
        Py_RETURN_NONE;
    }
    return PyObject_GetAttrString(slow, (const char *)closure);
}

static inline PyObject *json_entry_repr(PyObject *self) {
    return PyUnicode_FromFormat("<native entry point of %R>", ((JsonEntryHead *)self)->slow);
}

/* tp_traverse / tp_clear of the common fields (str_plans is no container: dealloc drops it) */
static inline int json_entry_traverse(JsonEntryHead *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->model_dict);
    Py_VISIT(self->slow);
    Py_VISIT(self->plans);
    Py_VISIT(self->tables);
    return 0;
}

static inline int json_entry_clear(JsonEntryHead *self) {
    Py_CLEAR(self->model_dict);
    Py_CLEAR(self->slow);
    Py_CLEAR(self->plans);
    Py_CLEAR(self->tables);
    return 0;
}

/* The getset entries both types take from the Python method, after their own __wrapped__. */
#define JSON_ENTRY_GETSET_OF_SLOW                                                          \
    {"__doc__", json_entry_attr_of_slow, NULL, NULL, "__doc__"},                           \
    {"__name__", json_entry_attr_of_slow, NULL, NULL, "__name__"},                         \
    {"__qualname__", json_entry_attr_of_slow, NULL, NULL, "__qualname__"},                 \
    {"__self__", json_entry_attr_of_slow, NULL, "the model", "__self__"},                  \
    {"__func__", json_entry_attr_of_slow, NULL, "the TypeModel method", "__func__"},       \
    {"__module__", json_entry_attr_of_slow, NULL, NULL, "__module__"},

/* vectorcall sits at the same offset in both types */
#define JSON_ENTRY_MEMBERS                                                                 \
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(JsonEntryHead, vectorcall), READONLY, NULL},

/* The payload type of an Any's type name, from the table native_read.py / native_write.py
 * made for an entry's options, `sub` = (cache, resolve, claims, ...): the cache's entry
 * (a 5-tuple whose item 0 is the claims list that named it) while protoattr._core.names
 * still has that very list for the name, else what `resolve(name)` gives (it fills the
 * cache).  A new reference; NULL with no error set: the reference decides (no class,
 * an ambiguous name, anything not a 5-tuple); NULL with an error: an error. */
static inline PyObject *json_any_entry(PyObject *sub, PyObject *name) {
    PyObject *cache = PyTuple_GET_ITEM(sub, 0);
    PyObject *claims = PyTuple_GET_ITEM(sub, 2);
    PyObject *entry = PyDict_GetItemWithError(cache, name);
    if (entry != NULL) {
        PyObject *now = PyDict_GetItemWithError(claims, name);
        if (now != NULL && now == PyTuple_GET_ITEM(entry, 0)) {
            Py_INCREF(entry);
            return entry;
        }
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    entry = PyObject_CallOneArg(PyTuple_GET_ITEM(sub, 1), name);
    if (entry == NULL || !PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 5) {
        Py_XDECREF(entry);
        return NULL;
    }
    return entry;
}

#endif
