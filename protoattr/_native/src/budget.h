/* The message budget of one decode: TypeModel(max_messages=N) enforced in the engine.
 *
 * Each message a decode builds (a fresh one, an empty one standing for an absent
 * field, one merged into) takes one from the budget, counted where the generated
 * Python decoder counts it (on entry, after the depth check), so both backends stop
 * at the same message with the same DecodeError.  The count lives in the decode's
 * Ctx (a decrement per message; an unbounded model starts it at INT64_MAX and never
 * reaches the check).  Where a decode crosses into Python (a contract the engine
 * does not run, an entry point called by a generated decoder) the count travels
 * through the Python side's thread-local BUDGET.left, which the generated decoders
 * decrement: lent before a call-back, taken back after it.
 *
 * Crossing the bound raises the runtime's TooManyMessages (a DecodeError) and is
 * final: engine_may_fall_back() does not hand it to the Python codec, which would
 * only build the same messages again, more slowly, to raise the same error.
 */
#ifndef PROTOATTR_BUDGET_H
#define PROTOATTR_BUDGET_H

#include "engine.h"

/* Set up `c` for a decode of `plan`'s model from `buf`.  `nested`: the decode is
 * called from Python (Plan.decode), so it continues the count in BUDGET.left; else
 * (an entry point's fresh decode) it starts at max_messages.  -1 on error. */
int ctx_start(Ctx *c, EngineState *st, Plan *plan, PyObject *buf, int nested);

/* After a nested decode: the count goes back to BUDGET.left if the decode succeeded
 * or crossed the bound (on another failure the Python codec runs from where the
 * count was).  Keeps a pending exception. */
void ctx_finish(Ctx *c, const PyObject *out);

/* The bound was crossed building a `plan` message at `p`: the DecodeError set, -1. */
int budget_exceeded(Ctx *c, const Plan *plan, const unsigned char *p);

/* One message more: 0, or -1 with the DecodeError set. */
ENGINE_INLINE int take_message(Ctx *c, const Plan *plan, const unsigned char *p) {
    if (--c->budget >= 0) {
        return 0;
    }
    return budget_exceeded(c, plan, p);
}

/* Around a call into Python that may decode messages of this model: the count lent
 * to BUDGET.left (`*saved` the value there before), then taken back, BUDGET.left
 * restored.  No-ops for an unbounded model.  budget_lend: -1 on error; budget_back:
 * -1 when the call-back crossed the bound (its error pending) or on error. */
int budget_lend(Ctx *c, PyObject **saved);
int budget_back(Ctx *c, PyObject *saved);

#endif
