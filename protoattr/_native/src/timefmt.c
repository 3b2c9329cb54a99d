/* google.protobuf.Timestamp and Duration <-> datetime / timedelta, in C.
 *
 * The common cases only: exact datetime (naive or timezone.utc) and timedelta
 * values, bodies of fields 1 and 2 only, merged into nothing.  Everything else
 * (other time zones, subclasses, unknown fields in the body, out-of-range
 * values, a merge into an earlier value) returns 0 = "not taken", and the
 * caller calls the Python helper, which is the reference.
 */
#include "timefmt.h"
#include "wire.h"

#define MIN_TS (-62135596800LL)
#define MAX_TS 253402300799LL
#define MAX_DURATION 315576000000LL

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm). */
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void civil_from_days(int64_t z, int *year, int *month, int *day) {
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t y = yoe + era * 400;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    int64_t d = doy - (153 * mp + 2) / 5 + 1;
    int64_t m = mp + (mp < 10 ? 3 : -9);
    *year = (int)(y + (m <= 2));
    *month = (int)m;
    *day = (int)d;
}

void civil_from_seconds(int64_t seconds, int *year, int *month, int *day, int *second_of_day) {
    int64_t days = (seconds >= 0 ? seconds : seconds - 86399) / 86400;  /* floor */
    *second_of_day = (int)(seconds - days * 86400);
    civil_from_days(days, year, month, day);
}

static int put_seconds_nanos(Buf *b, int64_t seconds, int64_t nanos) {
    if (buf_reserve(b, 1 + 22) < 0) {
        return -1;
    }
    Py_ssize_t at = buf_open(b);
    if (seconds) {
        b->data[b->len++] = 0x08;
        buf_put_varint_unchecked(b, (uint64_t)seconds);
    }
    if (nanos) {
        b->data[b->len++] = 0x10;
        buf_put_varint_unchecked(b, (uint64_t)nanos);
    }
    return buf_close(b, at);
}

int time_encode(PyDateTime_CAPI *api, int kind_is_timestamp, PyObject *v, Buf *b) {
    if (api == NULL) {
        return 0;
    }
    if (kind_is_timestamp) {
        if (Py_TYPE(v) != api->DateTimeType) {
            return 0;
        }
        PyObject *tz = ((PyDateTime_DateTime *)v)->hastzinfo
                           ? ((PyDateTime_DateTime *)v)->tzinfo : Py_None;
        if (tz != Py_None && tz != api->TimeZone_UTC) {
            return 0;
        }
        int64_t days = days_from_civil(PyDateTime_GET_YEAR(v), PyDateTime_GET_MONTH(v),
                                       PyDateTime_GET_DAY(v));
        int64_t seconds = days * 86400 + PyDateTime_DATE_GET_HOUR(v) * 3600
                          + PyDateTime_DATE_GET_MINUTE(v) * 60 + PyDateTime_DATE_GET_SECOND(v);
        if (seconds < MIN_TS || seconds > MAX_TS) {
            return 0;
        }
        return put_seconds_nanos(b, seconds, (int64_t)PyDateTime_DATE_GET_MICROSECOND(v) * 1000)
                       < 0 ? -1 : 1;
    }
    if (Py_TYPE(v) != api->DeltaType) {
        return 0;
    }
    int64_t days = PyDateTime_DELTA_GET_DAYS(v);
    if (days > 4000000 || days < -4000000) {
        return 0;  /* far beyond Duration's range: Python says so */
    }
    int64_t micros = (days * 86400 + PyDateTime_DELTA_GET_SECONDS(v)) * 1000000
                     + PyDateTime_DELTA_GET_MICROSECONDS(v);
    int64_t mag = micros < 0 ? -micros : micros;
    int64_t seconds = mag / 1000000, rest = mag % 1000000;
    if (seconds > MAX_DURATION) {
        return 0;
    }
    if (micros < 0) {
        seconds = -seconds;
        rest = -rest;
    }
    return put_seconds_nanos(b, seconds, rest * 1000) < 0 ? -1 : 1;
}

/* Fields 1 (seconds) and 2 (nanos) of a body; 0 for anything else in it. */
static int read_seconds_nanos(const unsigned char *p, const unsigned char *end, int64_t *seconds,
                              int64_t *nanos) {
    *seconds = 0;
    *nanos = 0;
    while (p < end) {
        uint64_t tag, x;
        if (read_tag(&p, end, &tag) < 0) return 0;
        if (tag == 8) {
            if (read_varint(&p, end, &x) < 0) return 0;
            *seconds = (int64_t)x;
        } else if (tag == 16) {
            if (read_varint(&p, end, &x) < 0) return 0;
            *nanos = (int32_t)(uint32_t)x;
        } else {
            return 0;
        }
    }
    return 1;
}

PyObject *time_decode(PyDateTime_CAPI *api, int kind_is_timestamp, const unsigned char *p,
                      const unsigned char *end, int *taken) {
    *taken = 0;
    int64_t seconds, nanos;
    if (api == NULL || !read_seconds_nanos(p, end, &seconds, &nanos)) {
        return NULL;
    }
    if (kind_is_timestamp) {
        if (seconds < MIN_TS || seconds > MAX_TS || nanos < 0 || nanos > 999999999) {
            return NULL;
        }
        int y, m, d, sod;
        civil_from_seconds(seconds, &y, &m, &d, &sod);
        *taken = 1;
        return api->DateTime_FromDateAndTime(y, m, d, sod / 3600, sod / 60 % 60, sod % 60,
                                             (int)(nanos / 1000),
                                             api->TimeZone_UTC, api->DateTimeType);
    }
    if (seconds > MAX_DURATION || seconds < -MAX_DURATION || nanos > 999999999
        || nanos < -999999999) {
        return NULL;
    }
    int64_t total = seconds * 1000000 + nanos / 1000;  /* int(nanos / 1000): toward zero */
    int64_t days = (total >= 0 ? total : total - 86399999999LL) / 86400000000LL;
    int64_t rest = total - days * 86400000000LL;
    *taken = 1;
    return api->Delta_FromDelta((int)days, (int)(rest / 1000000), (int)(rest % 1000000), 1,
                                api->DeltaType);
}
