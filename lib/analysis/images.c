/* images.c - AndroidGodEye's image rules and wasted bytes, 64-bit exact. */
#include "analysis/images.h"

#include <math.h>
#include <strings.h>

static const char *const issue_names[] = {
    [GD_IMAGE_INVISIBLE_BUT_MEMORY_OCCUPIED] = "INVISIBLE_BUT_MEMORY_OCCUPIED",
    [GD_IMAGE_BITMAP_QUALITY_TOO_HIGH] = "BITMAP_QUALITY_TOO_HIGH",
    [GD_IMAGE_BITMAP_QUALITY_TOO_LOW] = "BITMAP_QUALITY_TOO_LOW",
};

const char *gd_image_issue_name(gd_image_issue i)
{
    return i > GD_IMAGE_NONE && i < GD_IMAGE_MALFORMED ? issue_names[i] : NULL;
}

gd_image_issue gd_image_issue_parse(const char *name)
{
    if (!name)
        return GD_IMAGE_NONE;
    for (int i = GD_IMAGE_NONE + 1; i < GD_IMAGE_MALFORMED; i++)
        if (strcasecmp(name, issue_names[i]) == 0)
            return (gd_image_issue)i;
    return GD_IMAGE_NONE;
}

int gd_image_bytes_per_pixel(const char *config)
{
    static const struct {
        const char *name;
        int bpp;
    } cfg[] = {
        {"ALPHA_8", 1},      {"RGB_565", 2},      {"ARGB_4444", 2},
        {"ARGB_8888", 4},    {"RGBA_1010102", 4}, {"RGBA_F16", 8},
    };
    if (config)
        for (size_t i = 0; i < sizeof cfg / sizeof cfg[0]; i++)
            if (strcasecmp(config, cfg[i].name) == 0)
                return cfg[i].bpp;
    return 4;
}

/* saturates at INT64_MAX: the byte count is stored and shown as int64
 * (UINT64_MAX read back as -1); the ingest keeps sides within 2^24 px,
 * where no product reaches it */
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return b && a > (uint64_t)INT64_MAX / b ? (uint64_t)INT64_MAX : a * b;
}

static double rule(double v, double def)
{
    return isnan(v) || v <= 0 ? def : v;
}

gd_image_issue gd_image_check(int32_t view_w, int32_t view_h, int view_visible, int32_t bitmap_w,
                              int32_t bitmap_h, const char *config, const gd_image_rules *rules,
                              gd_image_result *out)
{
    gd_image_result r = {GD_IMAGE_MALFORMED, 0, 0, gd_image_bytes_per_pixel(config), 0};
    int malformed = bitmap_w <= 0 || bitmap_h <= 0 || view_w < 0 || view_h < 0 ||
                    (view_visible && (view_w == 0 || view_h == 0));
    if (!malformed) {
        /* both areas < 2^62: exact in uint64 */
        r.bitmap_area = (uint64_t)bitmap_w * (uint64_t)bitmap_h;
        r.view_area = (uint64_t)view_w * (uint64_t)view_h;
        /* long double: a 64-bit (x86) or wider significand keeps area ×
         * threshold exact for the defaults (62-bit area × 2-bit 1.5 / 0.5) */
        long double high = rule(rules ? rules->high : NAN, GD_IMAGE_HIGH);
        long double low = rule(rules ? rules->low : NAN, GD_IMAGE_LOW);
        long double ba = (long double)r.bitmap_area, va = (long double)r.view_area;
        if (!view_visible) {
            r.issue = GD_IMAGE_INVISIBLE_BUT_MEMORY_OCCUPIED;
            r.wasted_bytes = sat_mul(r.bitmap_area, (uint64_t)r.bytes_per_pixel);
        } else if (ba > high * va) {
            r.issue = GD_IMAGE_BITMAP_QUALITY_TOO_HIGH;
            if (r.bitmap_area > r.view_area)
                r.wasted_bytes = sat_mul(r.bitmap_area - r.view_area, (uint64_t)r.bytes_per_pixel);
        } else if (ba < low * va) {
            r.issue = GD_IMAGE_BITMAP_QUALITY_TOO_LOW;
        } else {
            r.issue = GD_IMAGE_NONE;
        }
    }
    if (out)
        *out = r;
    return r.issue;
}

gd_image_issue gd_image_check_event(const gd_image_ev *ev, const gd_image_rules *rules,
                                    gd_image_result *out)
{
    return gd_image_check(ev->view_w, ev->view_h, ev->view_visible, ev->bitmap_w, ev->bitmap_h,
                          ev->config, rules, out);
}

gd_image_key gd_image_key_of(const gd_image_ev *ev, gd_image_issue issue)
{
    gd_image_key k = {ev->page.hash, ev->view_hash, ev->bitmap_w, ev->bitmap_h, issue};
    return k;
}

#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b))

int gd_image_key_cmp(const void *a, const void *b)
{
    const gd_image_key *x = a, *y = b;
    int c;
    if ((c = CMP(x->page_hash, y->page_hash)) || (c = CMP(x->view_hash, y->view_hash)) ||
        (c = CMP(x->bitmap_w, y->bitmap_w)) || (c = CMP(x->bitmap_h, y->bitmap_h)))
        return c;
    return CMP((int)x->issue, (int)y->issue);
}
