/* frametimeline.c - Perfetto FrameTimeline jank names, tags and counts (frametimeline.h). */
#include "analysis/frametimeline.h"

static const char *const BIT_NAMES[GD_FT_NBITS] = {
    "None",
    "SurfaceFlinger Scheduling",
    "Prediction Error",
    "Display HAL",
    "SurfaceFlinger CPU Deadline Missed",
    "SurfaceFlinger GPU Deadline Missed",
    "App Deadline Missed",
    "Buffer Stuffing",
    "Unknown Jank",
    "SurfaceFlinger Stuffing",
    "Dropped Frame",
    "Non Animating",
    "App Resynced Jitter",
    "Display not ON",
    "ModeChange in progress",
    "PowerModeChange in progress",
};

static const char *const TAG_NAMES[GD_FT_TAG__COUNT] = {
    "Unspecified",     "No Jank",         "Self Jank",    "Other Jank",
    "Buffer Stuffing", "SurfaceFlinger Stuffing", "Dropped Frame", "Non-perceivable Jank",
};

/* the bitmasks Perfetto's SurfaceFrameJanky and DisplayFrameJanky test */
#define SELF_MASK (64 | 4096 | 256)
#define OTHER_MASK (2 | 4 | 8 | 16 | 32)

const char *gd_ft_jank_bit_name(int bit)
{
    return bit >= 0 && bit < GD_FT_NBITS ? BIT_NAMES[bit] : NULL;
}

const char *gd_ft_tag_name(gd_ft_tag t)
{
    return (int)t >= 0 && t < GD_FT_TAG__COUNT ? TAG_NAMES[t] : NULL;
}

gd_ft_tag gd_ft_tag_of(int64_t jank, int64_t present)
{
    if (jank == 0)
        return GD_FT_TAG_UNSPECIFIED;
    int quiet = jank == GD_FT_JANK_NONE || jank == 2048 || jank == 8192;
    if (!quiet && (jank & SELF_MASK))
        return GD_FT_TAG_SELF;
    if (!quiet && (jank & OTHER_MASK))
        return GD_FT_TAG_OTHER;
    if (jank == 128)
        return GD_FT_TAG_BUFFER_STUFFING;
    if (jank == 512)
        return GD_FT_TAG_SF_STUFFING;
    if (present == GD_FT_PRESENT_DROPPED)
        return GD_FT_TAG_DROPPED;
    if (jank == 2048 || jank == 8192 || jank == 32768)
        return GD_FT_TAG_NON_PERCEIVABLE;
    return GD_FT_TAG_NONE;
}

gd_ft_tag gd_ft_display_tag_of(int64_t jank)
{
    if (jank == 0)
        return GD_FT_TAG_UNSPECIFIED;
    int quiet = jank == GD_FT_JANK_NONE || jank == 2048 || jank == 8192;
    if (!quiet && (jank & OTHER_MASK))
        return GD_FT_TAG_SELF;
    if (jank == 512)
        return GD_FT_TAG_SF_STUFFING;
    if (jank == 1024)
        return GD_FT_TAG_DROPPED;
    if (jank == 2048 || jank == 8192 || jank == 32768)
        return GD_FT_TAG_NON_PERCEIVABLE;
    return GD_FT_TAG_NONE;
}

#define APP_BITS (64 | 4096)
#define SF_BITS (2 | 4 | 8 | 16 | 32)

int gd_ft_is_app(int64_t jank)
{
    return jank > 0 && (jank & APP_BITS);
}

int gd_ft_is_compositor(int64_t jank)
{
    return jank > 0 && (jank & SF_BITS);
}

int gd_ft_is_dropped(int64_t jank)
{
    return jank > 0 && (jank & GD_FT_JANK_DROPPED);
}

int gd_ft_is_janky(int64_t jank)
{
    return gd_ft_is_app(jank) || gd_ft_is_compositor(jank) || gd_ft_is_dropped(jank);
}

/* Adds one frame of jank_type `jank` and tag t to s. */
static void stats_add(gd_ft_stats *s, int64_t jank, gd_ft_tag t)
{
    s->frames++;
    s->tag[t]++;
    if (gd_ft_is_dropped(jank))
        s->dropped++;
    if (jank == 0)
        s->unspecified++;
    if (gd_ft_is_janky(jank))
        s->janky++;
    if (gd_ft_is_app(jank))
        s->app++;
    if (gd_ft_is_compositor(jank))
        s->compositor++;
    uint64_t u = (uint64_t)jank;
    for (int b = 0; b < GD_FT_NBITS; b++)
        if (u & ((uint64_t)1 << b))
            s->bit[b]++;
    if (u >> GD_FT_NBITS)
        s->other_bits++;
}

void gd_ft_stats_add(gd_ft_stats *s, int64_t jank, int64_t present)
{
    stats_add(s, jank, gd_ft_tag_of(jank, present));
}

void gd_ft_stats_add_display(gd_ft_stats *s, int64_t jank)
{
    stats_add(s, jank, gd_ft_display_tag_of(jank));
}
