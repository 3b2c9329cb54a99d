/* Building instances without calling Python code, where nothing can tell.
 *
 * A plan with construct_new builds its object as `ctor(cls)` and then sets the
 * fields (plain classes, and dataclasses whose __init__ is the generated one:
 * see plan.py's _init_assigns).  When ctor is object.__new__, calling it goes
 * through its Python-level wrapper (two argument tuples, checks); this calls
 * object's tp_new directly after the same safety check the wrapper makes (the
 * nearest static base of cls must use object's tp_new, so that no C-level
 * initialisation of a built-in base is skipped), with no arguments.
 */
#include "plan.h"

PyObject *engine_new_object(EngineState *st, Plan *plan) {
    PyObject *cls = plan->cls;
    if (plan->ctor == st->object_new && PyType_Check(cls)) {
        PyTypeObject *tp = (PyTypeObject *)cls;
        PyTypeObject *base = tp;
        while (base != NULL && (base->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
            base = base->tp_base;
        }
        if (base != NULL && base->tp_new == PyBaseObject_Type.tp_new
            && tp->tp_new == PyBaseObject_Type.tp_new) {
            PyObject *noargs = PyTuple_New(0);
            if (noargs == NULL) {
                return NULL;
            }
            PyObject *obj = PyBaseObject_Type.tp_new(tp, noargs, NULL);
            Py_DECREF(noargs);
            return obj;
        }
    }
    return PyObject_CallOneArg(plan->ctor, cls);
}
