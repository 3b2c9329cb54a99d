/* protobuf-net's bcl.proto forms in C: the rules of protoattr/_core/bcl.py.
 *
 * bcl.DateTime/TimeSpan: sint64 value = 1 in units of scale = 2 (coarsest exact on
 * write; MINMAX = 15 with value -1/+1 for MinValue/MaxValue), kind = 3.
 * bcl.Decimal: uint64 lo = 1, uint32 hi = 2 (a 96-bit coefficient), uint32 signScale = 3.
 * bcl.Guid: fixed64 lo = 1, hi = 2, the halves of Guid.ToByteArray() (UUID.bytes_le).
 *
 * Only the common cases are taken here: exact classes, naive or UTC datetimes, bodies
 * holding only the known fields.  Everything else (other time zones, unknown fields in
 * a body, values out of range, sub-microsecond ticks, decimals that do not fit) is
 * "not taken" and the caller calls the Python helper, which is the reference and gives
 * the errors.
 */
#include "bcl.h"
#include "convert.h"
#include "wire.h"

#define EPOCH_TICKS 621355968000000000LL
#define MAX_DATETIME_TICKS 3155378975999999999LL
#define MINMAX 15

static const int64_t TICKS_PER[6] = {
    864000000000LL, 36000000000LL, 600000000LL, 10000000LL, 10000LL, 1LL,
};

/* -- time -------------------------------------------------------------------------- */

static int put_scaled(Buf *b, int64_t value, int scale, int kind) {
    if (buf_reserve(b, 1 + 16) < 0) {
        return -1;
    }
    Py_ssize_t at = buf_open(b);
    if (value) {
        b->data[b->len++] = 0x08;
        buf_put_varint_unchecked(b, ((uint64_t)value << 1) ^ (uint64_t)(value >> 63));
    }
    if (scale) {
        b->data[b->len++] = 0x10;
        b->data[b->len++] = (unsigned char)scale;
    }
    if (kind) {
        b->data[b->len++] = 0x18;
        b->data[b->len++] = (unsigned char)kind;
    }
    return buf_close(b, at);
}

/* The coarsest exact scale for `ticks` */
static int put_ticks(Buf *b, int64_t ticks, int kind) {
    for (int s = 0; s < 5; s++) {
        if (ticks % TICKS_PER[s] == 0) {
            return put_scaled(b, ticks / TICKS_PER[s], s, kind);
        }
    }
    return put_scaled(b, ticks, 5, kind);
}

static int encode_datetime(PyDateTime_CAPI *api, int with_kind, PyObject *v, Buf *b) {
    if (Py_TYPE(v) != api->DateTimeType) {
        return 0;
    }
    PyObject *tz = ((PyDateTime_DateTime *)v)->hastzinfo ? ((PyDateTime_DateTime *)v)->tzinfo
                                                          : Py_None;
    if (tz != Py_None && tz != api->TimeZone_UTC) {
        return 0;  /* another zone: converted to UTC by Python */
    }
    int y = PyDateTime_GET_YEAR(v), mo = PyDateTime_GET_MONTH(v), d = PyDateTime_GET_DAY(v);
    int h = PyDateTime_DATE_GET_HOUR(v), mi = PyDateTime_DATE_GET_MINUTE(v);
    int s = PyDateTime_DATE_GET_SECOND(v), us = PyDateTime_DATE_GET_MICROSECOND(v);
    if (y == 1 && mo == 1 && d == 1 && h == 0 && mi == 0 && s == 0 && us == 0) {
        return put_scaled(b, -1, MINMAX, 0) < 0 ? -1 : 1;  /* DateTime.MinValue */
    }
    if (y == 9999 && mo == 12 && d == 31 && h == 23 && mi == 59 && s == 59 && us == 999999) {
        return put_scaled(b, 1, MINMAX, 0) < 0 ? -1 : 1;  /* DateTime.MaxValue */
    }
    int64_t days = days_from_civil(y, mo, d);
    int64_t micros = ((days * 86400 + h * 3600 + mi * 60 + s) * 1000000) + us;
    int kind = (with_kind && tz != Py_None) ? 1 : 0;
    return put_ticks(b, micros * 10, kind) < 0 ? -1 : 1;
}

static int encode_timespan(PyDateTime_CAPI *api, PyObject *v, Buf *b) {
    if (Py_TYPE(v) != api->DeltaType) {
        return 0;
    }
    int64_t days = PyDateTime_DELTA_GET_DAYS(v);
    int secs = PyDateTime_DELTA_GET_SECONDS(v), us = PyDateTime_DELTA_GET_MICROSECONDS(v);
    if (days == 999999999 && secs == 86399 && us == 999999) {
        return put_scaled(b, 1, MINMAX, 0) < 0 ? -1 : 1;  /* timedelta.max: MaxValue */
    }
    if (days == -999999999 && secs == 0 && us == 0) {
        return put_scaled(b, -1, MINMAX, 0) < 0 ? -1 : 1;  /* timedelta.min: MinValue */
    }
    if (days > 10675198 || days < -10675198) {
        return 0;  /* near or beyond TimeSpan's range: Python decides */
    }
    int64_t micros = (days * 86400 + secs) * 1000000 + us;
    return put_ticks(b, micros * 10, 0) < 0 ? -1 : 1;
}

/* value, scale, kind of a body holding fields 1..3 only, validated; 0 for anything else */
static int read_scaled(const unsigned char *p, const unsigned char *end, int64_t *value,
                       int *scale, int *kind) {
    *value = 0;
    *scale = 0;
    *kind = 0;
    while (p < end) {
        uint64_t tag, x;
        if (read_tag(&p, end, &tag) < 0 || (tag != 8 && tag != 16 && tag != 24)
            || read_varint(&p, end, &x) < 0) {
            return 0;
        }
        if (tag == 8) {
            *value = (int64_t)(x >> 1) ^ -(int64_t)(x & 1);
        } else if (tag == 16) {
            if (x > MINMAX || (x > 5 && x != MINMAX)) return 0;
            *scale = (int)x;
        } else {
            if (x > 2) return 0;
            *kind = (int)x;
        }
    }
    if (*scale == MINMAX && *value != 1 && *value != -1) {
        return 0;
    }
    return 1;
}

/* ticks of value x scale, whole microseconds; 0 when it overflows or is not */
static int scaled_ticks(int64_t value, int scale, int64_t *ticks) {
    int64_t unit = TICKS_PER[scale];  /* > 0; no compiler builtins (MSVC builds this too) */
    if (value > INT64_MAX / unit || value < INT64_MIN / unit) {
        return 0;
    }
    *ticks = value * unit;
    return *ticks % 10 == 0;
}

static PyObject *delta_of_micros(PyDateTime_CAPI *api, int64_t micros) {
    int64_t days = (micros >= 0 ? micros : micros - 86399999999LL) / 86400000000LL;
    int64_t rest = micros - days * 86400000000LL;
    return api->Delta_FromDelta((int)days, (int)(rest / 1000000), (int)(rest % 1000000), 1,
                                api->DeltaType);
}

/* The datetime `ticks` (whole microseconds, in range) after 1970-01-01; in UTC or naive */
static PyObject *datetime_of_ticks(PyDateTime_CAPI *api, int64_t ticks, int utc) {
    int64_t micros = ticks / 10;
    int64_t days = (micros >= 0 ? micros : micros - 86399999999LL) / 86400000000LL;
    int64_t rest = micros - days * 86400000000LL;
    int y, m, d;
    civil_from_days(days, &y, &m, &d);
    int64_t sod = rest / 1000000;
    return api->DateTime_FromDateAndTime(y, m, d, (int)(sod / 3600), (int)(sod / 60 % 60),
                                         (int)(sod % 60), (int)(rest % 1000000),
                                         utc ? api->TimeZone_UTC : Py_None, api->DateTimeType);
}

static PyObject *decode_datetime(PyDateTime_CAPI *api, const unsigned char *p,
                                 const unsigned char *end, int *taken) {
    int64_t value, ticks;
    int scale, kind;
    if (!read_scaled(p, end, &value, &scale, &kind)) {
        return NULL;
    }
    if (scale == MINMAX) {
        *taken = 1;
        return value == 1 ? api->DateTime_FromDateAndTime(9999, 12, 31, 23, 59, 59, 999999,
                                                          Py_None, api->DateTimeType)
                          : api->DateTime_FromDateAndTime(1, 1, 1, 0, 0, 0, 0, Py_None,
                                                          api->DateTimeType);
    }
    if (!scaled_ticks(value, scale, &ticks) || ticks < -EPOCH_TICKS
        || ticks > MAX_DATETIME_TICKS - EPOCH_TICKS) {
        return NULL;
    }
    *taken = 1;
    return datetime_of_ticks(api, ticks, kind == 1);
}

static PyObject *decode_timespan(PyDateTime_CAPI *api, const unsigned char *p,
                                 const unsigned char *end, int *taken) {
    int64_t value, ticks;
    int scale, kind;
    if (!read_scaled(p, end, &value, &scale, &kind)) {
        return NULL;
    }
    *taken = 1;
    if (scale == MINMAX) {
        return value == 1 ? api->Delta_FromDelta(999999999, 86399, 999999, 1, api->DeltaType)
                          : api->Delta_FromDelta(-999999999, 0, 0, 1, api->DeltaType);
    }
    if (!scaled_ticks(value, scale, &ticks)) {
        *taken = 0;
        return NULL;
    }
    return delta_of_micros(api, ticks / 10);
}

/* -- decimal ----------------------------------------------------------------------- */

/* A .NET decimal's 96-bit coefficient as three 32-bit limbs, least significant first
 * (portable: no 128-bit integers). */
typedef struct {
    uint32_t limb[3];
} U96;

/* c = c * 10 + digit; 0 when it no longer fits 96 bits */
static int u96_mul10_add(U96 *c, unsigned digit) {
    uint64_t carry = digit;
    for (int i = 0; i < 3; i++) {
        uint64_t t = (uint64_t)c->limb[i] * 10 + carry;
        c->limb[i] = (uint32_t)t;
        carry = t >> 32;
    }
    return carry == 0;
}

/* c = c / 10, returning the remainder */
static unsigned u96_divmod10(U96 *c) {
    uint64_t r = 0;
    for (int i = 2; i >= 0; i--) {
        uint64_t t = r << 32 | c->limb[i];
        c->limb[i] = (uint32_t)(t / 10);
        r = t % 10;
    }
    return (unsigned)r;
}

static int u96_is_zero(const U96 *c) {
    return (c->limb[0] | c->limb[1] | c->limb[2]) == 0;
}

/* str(Decimal) -> coefficient, scale 0..28, sign; 0 when it does not fit (or is no
 * finite number): Python then says why. */
static int parse_decimal(PyObject *text, U96 *coef, int *scale, int *negative) {
    if (!PyUnicode_IS_ASCII(text)) {
        return 0;
    }
    const char *s = (const char *)PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text), i = 0;
    char digits[64];
    int nd = 0;
    int64_t exponent = 0;
    *negative = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) {
        *negative = s[i] == '-';
        i++;
    }
    int point = 0, any = 0;
    for (; i < n; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            any = 1;
            if (nd == 0 && c == '0') {
                if (point) exponent--;
                continue;  /* leading zeros */
            }
            if (nd >= 60) return 0;
            digits[nd++] = c;
            if (point) exponent--;
        } else if (c == '.' && !point) {
            point = 1;
        } else {
            break;
        }
    }
    if (!any) {
        return 0;
    }
    if (i < n) {
        if (s[i] != 'E' && s[i] != 'e') return 0;
        i++;
        int eneg = 0;
        if (i < n && (s[i] == '-' || s[i] == '+')) {
            eneg = s[i] == '-';
            i++;
        }
        if (i >= n) return 0;
        int64_t e = 0;
        for (; i < n; i++) {
            if (s[i] < '0' || s[i] > '9' || e > 1000000) return 0;
            e = e * 10 + (s[i] - '0');
        }
        exponent += eneg ? -e : e;
    }
    /* value = digits x 10**exponent */
    while (exponent > 0) {
        if (nd == 0) { exponent = 0; break; }
        if (nd >= 60) return 0;
        digits[nd++] = '0';
        exponent--;
    }
    int64_t sc = -exponent;
    /* trailing zeros go only where the value would not fit otherwise */
    while ((sc > 28 || nd > 29) && sc > 0 && nd > 0 && digits[nd - 1] == '0') {
        nd--;
        sc--;
    }
    if (nd == 0 && sc > 28) {
        sc = 28;
    }
    if (nd > 29 || sc > 28) {
        return 0;
    }
    U96 c = {{0, 0, 0}};
    for (int k = 0; k < nd; k++) {
        if (!u96_mul10_add(&c, (unsigned)(digits[k] - '0'))) {
            return 0;  /* 29 digits beyond 2**96 - 1 */
        }
    }
    *coef = c;
    *scale = (int)sc;
    return 1;
}

static int encode_decimal(const ValueSpec *vs, PyObject *v, Buf *b) {
    if (vs->domain == NULL || Py_TYPE(v) != (PyTypeObject *)vs->domain) {
        return 0;
    }
    PyObject *text = PyObject_Str(v);
    if (text == NULL) {
        return -1;
    }
    U96 coef;
    int scale, negative;
    int ok = parse_decimal(text, &coef, &scale, &negative);
    Py_DECREF(text);
    if (!ok) {
        return 0;
    }
    uint64_t lo = (uint64_t)coef.limb[1] << 32 | coef.limb[0], hi = coef.limb[2];
    uint32_t sign_scale = (uint32_t)(scale << 1 | negative);
    if (buf_reserve(b, 1 + 22) < 0) {
        return -1;
    }
    Py_ssize_t at = buf_open(b);
    if (lo) {
        b->data[b->len++] = 0x08;
        buf_put_varint_unchecked(b, lo);
    }
    if (hi) {
        b->data[b->len++] = 0x10;
        buf_put_varint_unchecked(b, hi);
    }
    if (sign_scale) {
        b->data[b->len++] = 0x18;
        buf_put_varint_unchecked(b, sign_scale);
    }
    return buf_close(b, at) < 0 ? -1 : 1;
}

static PyObject *decode_decimal(const ValueSpec *vs, const unsigned char *p,
                                const unsigned char *end, int *taken) {
    uint64_t lo = 0, hi = 0, sign_scale = 0;
    while (p < end) {
        uint64_t tag, x;
        if (read_tag(&p, end, &tag) < 0 || (tag != 8 && tag != 16 && tag != 24)
            || read_varint(&p, end, &x) < 0) {
            return NULL;
        }
        if (tag != 8 && x > 0xFFFFFFFFu) {
            return NULL;  /* hi and signScale are uint32: Python says which (even if a later
                             occurrence would fit) */
        }
        if (tag == 8) lo = x;
        else if (tag == 16) hi = x;
        else sign_scale = x;
    }
    int scale = (int)((sign_scale & 0x1FE) >> 1);
    if (scale > 28 || vs->domain == NULL) {
        return NULL;
    }
    U96 c = {{(uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi}};
    char text[48];
    char rev[32];
    int nr = 0;
    do {
        rev[nr++] = (char)('0' + u96_divmod10(&c));
    } while (!u96_is_zero(&c));
    int k = 0;
    if (sign_scale & 1) text[k++] = '-';
    while (nr) text[k++] = rev[--nr];
    k += snprintf(text + k, sizeof(text) - (size_t)k, "E-%d", scale);
    PyObject *s = PyUnicode_FromStringAndSize(text, k);
    if (s == NULL) {
        return NULL;
    }
    *taken = 1;
    PyObject *out = PyObject_CallOneArg(vs->domain, s);  /* Decimal(text): exact */
    Py_DECREF(s);
    return out;
}

/* -- guid -------------------------------------------------------------------------- */

/* UUID.bytes (big-endian) <-> Guid.ToByteArray() (UUID.bytes_le): the first three
 * groups byte-swapped; the mapping is its own inverse. */
static void swap_le(const unsigned char *in, unsigned char *out) {
    static const int at[16] = {3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15};
    for (int i = 0; i < 16; i++) {
        out[i] = in[at[i]];
    }
}

static int encode_guid(const ValueSpec *vs, PyObject *v, Buf *b) {
    unsigned char b16[16], le[16];
    if (vs->domain == NULL || Py_TYPE(v) != (PyTypeObject *)vs->domain
        || !convert_uuid_bytes(vs, v, b16)) {
        return 0;
    }
    if (buf_reserve(b, 1 + 18) < 0) {
        return -1;
    }
    Py_ssize_t at = buf_open(b);
    static const unsigned char zero[16];
    if (memcmp(b16, zero, 16) != 0) {  /* Guid.Empty: an empty body */
        swap_le(b16, le);
        b->data[b->len++] = 0x09;
        memcpy(b->data + b->len, le, 8);
        b->len += 8;
        b->data[b->len++] = 0x11;
        memcpy(b->data + b->len, le + 8, 8);
        b->len += 8;
    }
    return buf_close(b, at) < 0 ? -1 : 1;
}

static PyObject *decode_guid(const ValueSpec *vs, const unsigned char *p,
                             const unsigned char *end, int *taken) {
    unsigned char le[16] = {0}, b16[16];
    while (p < end) {
        uint64_t tag;
        if (read_tag(&p, end, &tag) < 0 || (tag != 9 && tag != 17) || end - p < 8) {
            return NULL;
        }
        memcpy(le + (tag == 9 ? 0 : 8), p, 8);
        p += 8;
    }
    if (vs->domain == NULL) {
        return NULL;
    }
    swap_le(le, b16);
    *taken = 1;
    return convert_uuid_from_16(vs, b16);
}

/* -- DataFormat.FixedSize: bare ticks ---------------------------------------------------- */

int bcl_ticks_of(PyDateTime_CAPI *api, int is_datetime, PyObject *v, int64_t *ticks) {
    if (api == NULL) {
        return 0;
    }
    if (is_datetime) {
        if (Py_TYPE(v) != api->DateTimeType) {
            return 0;
        }
        PyObject *tz = ((PyDateTime_DateTime *)v)->hastzinfo ? ((PyDateTime_DateTime *)v)->tzinfo
                                                              : Py_None;
        if (tz != Py_None && tz != api->TimeZone_UTC) {
            return 0;
        }
        int64_t days = days_from_civil(PyDateTime_GET_YEAR(v), PyDateTime_GET_MONTH(v),
                                       PyDateTime_GET_DAY(v));
        int64_t secs = days * 86400 + PyDateTime_DATE_GET_HOUR(v) * 3600
                       + PyDateTime_DATE_GET_MINUTE(v) * 60 + PyDateTime_DATE_GET_SECOND(v);
        *ticks = (secs * 1000000 + PyDateTime_DATE_GET_MICROSECOND(v)) * 10;
        return 1;
    }
    if (Py_TYPE(v) != api->DeltaType) {
        return 0;
    }
    int64_t days = PyDateTime_DELTA_GET_DAYS(v);
    int secs = PyDateTime_DELTA_GET_SECONDS(v), us = PyDateTime_DELTA_GET_MICROSECONDS(v);
    if (days == 999999999 && secs == 86399 && us == 999999) {
        *ticks = INT64_MAX;
        return 1;
    }
    if (days == -999999999 && secs == 0 && us == 0) {
        *ticks = INT64_MIN;
        return 1;
    }
    if (days > 10675198 || days < -10675198) {
        return 0;
    }
    *ticks = ((days * 86400 + secs) * 1000000 + us) * 10;
    return 1;
}

PyObject *bcl_of_ticks(PyDateTime_CAPI *api, int is_datetime, int64_t ticks) {
    if (api == NULL) {
        return NULL;
    }
    if (!is_datetime) {
        if (ticks == INT64_MAX) {
            return api->Delta_FromDelta(999999999, 86399, 999999, 1, api->DeltaType);
        }
        if (ticks == INT64_MIN) {
            return api->Delta_FromDelta(-999999999, 0, 0, 1, api->DeltaType);
        }
        return ticks % 10 ? NULL : delta_of_micros(api, ticks / 10);
    }
    if (ticks == INT64_MAX) {
        return api->DateTime_FromDateAndTime(9999, 12, 31, 23, 59, 59, 999999, Py_None,
                                             api->DateTimeType);
    }
    if (ticks == INT64_MIN) {
        return api->DateTime_FromDateAndTime(1, 1, 1, 0, 0, 0, 0, Py_None, api->DateTimeType);
    }
    if (ticks % 10 || ticks < -EPOCH_TICKS || ticks > MAX_DATETIME_TICKS - EPOCH_TICKS) {
        return NULL;
    }
    return datetime_of_ticks(api, ticks, 0);
}

/* -- entry points ------------------------------------------------------------------- */

int bcl_encode(PyDateTime_CAPI *api, const ValueSpec *vs, PyObject *v, Buf *b) {
    switch (vs->kind) {
    case K_BCL_DATETIME:
        /* `closed` carries IncludeDateTimeKind for this kind (plan.py) */
        return api == NULL ? 0 : encode_datetime(api, vs->closed, v, b);
    case K_BCL_TIMESPAN:
        return api == NULL ? 0 : encode_timespan(api, v, b);
    case K_BCL_DECIMAL:
        return encode_decimal(vs, v, b);
    case K_BCL_GUID:
        return encode_guid(vs, v, b);
    default:
        return 0;
    }
}

PyObject *bcl_decode(PyDateTime_CAPI *api, const ValueSpec *vs, const unsigned char *p,
                     const unsigned char *end, int *taken) {
    *taken = 0;
    switch (vs->kind) {
    case K_BCL_DATETIME:
        return api == NULL ? NULL : decode_datetime(api, p, end, taken);
    case K_BCL_TIMESPAN:
        return api == NULL ? NULL : decode_timespan(api, p, end, taken);
    case K_BCL_DECIMAL:
        return decode_decimal(vs, p, end, taken);
    case K_BCL_GUID:
        return decode_guid(vs, p, end, taken);
    default:
        return NULL;
    }
}

int bcl_setup(ValueSpec *v) {
    /* the spec gives Decimal/UUID as the domain (with no conversion) */
    if ((v->kind == K_BCL_DECIMAL || v->kind == K_BCL_GUID)
        && (v->domain == NULL || !PyType_Check(v->domain))) {
        PyErr_SetString(PyExc_ValueError, "plan: a bcl.Decimal/Guid value needs its class");
        return -1;
    }
    return v->kind == K_BCL_GUID ? convert_uuid_setup(v) : 0;
}
