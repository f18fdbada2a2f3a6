/*
 * Ralink/MediaTek switches: the frame generator, a test instrument (the
 * silicon has none), shared by the switch models (mt7530.c, ralink_esw.c)
 *
 * Writing "PORT COUNT INTERVAL FRAME" to a switch's "gen" property takes
 * COUNT copies of FRAME (hexadecimal, 14 bytes to the switch's longest
 * frame, no FCS) in at front port PORT, one every INTERVAL ns of the
 * virtual clock, as if they came from the wire there. Under -icount the
 * frames then arrive at the same guest instructions from run to run,
 * whatever else the host runs (make bench). A frame the CPU port cannot
 * take yet waits for the next tick (counted as held), as a backend's
 * frame waits in its queue; one the port does not take (link or MAC down,
 * too long) is dropped and counted.
 *
 * With "arm " before it, the program waits, and starts when a frame to
 * FRAME's source address next leaves port PORT (the guest sends the
 * station the generator stands for a frame when it is ready), after the
 * programs armed before it: up to RALINK_GEN_MAX_ARMED wait in order, so
 * that the host can arm a whole bench before the guest runs and the
 * frames come at the same guest instructions however late the host is.
 * A program written without "arm", or "stop", ends the running one and
 * drops the armed ones; a value it refuses leaves the generator as it
 * was. Reading it gives "sent S held H dropped D left L" (totals since it
 * was last idle; L: the running program's frames still to come), and
 * " armed N" while N programs wait. A QEMU reset stops it; it is not
 * migrated.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/net/ralink_gen.h"
#include "net/eth.h"
#include "trace.h"

static void ralink_gen_tick(void *opaque)
{
    RalinkGen *g = opaque;
    RalinkGenProgram *p = g->run;

    if (!p) {
        return;
    }
    switch (g->inject(g->opaque, p->port, p->frame, p->len)) {
    case RALINK_GEN_SENT:
        g->sent++;
        g->left--;
        break;
    case RALINK_GEN_DROPPED:
        g->dropped++;
        g->left--;
        break;
    case RALINK_GEN_HELD:
        g->held++;
        break;
    }
    if (g->left) {
        g->next += p->interval;
        timer_mod(g->timer, g->next);
    } else {
        trace_ralink_gen_done(g->name, p->port, g->sent, g->held,
                              g->dropped);
        g_free(g->run);
        g->run = NULL;
    }
}

void ralink_gen_stop(RalinkGen *g)
{
    timer_del(g->timer);
    g_free(g->run);
    g->run = NULL;
    g->left = 0;
    while (!g_queue_is_empty(&g->armed)) {
        g_free(g_queue_pop_head(&g->armed));
    }
}

static void ralink_gen_begin(RalinkGen *g, RalinkGenProgram *p)
{
    g->run = p;
    g->left = p->count;
    g->next = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + p->interval;
    trace_ralink_gen_start(g->name, p->port, p->count, p->interval, p->len);
    timer_mod(g->timer, g->next);
}

/*
 * A frame of @len bytes leaves front port @port while programs are armed
 * (ralink_gen_trigger()): the next one starts if the frame goes to the
 * source of that program's frames.
 */
void ralink_gen_start_armed(RalinkGen *g, int port, const uint8_t *buf,
                            size_t len)
{
    RalinkGenProgram *p = g_queue_peek_head(&g->armed);

    if (p && !g->run && port == p->port && len >= ETH_ALEN &&
        !memcmp(buf, p->frame + ETH_ALEN, ETH_ALEN)) {
        ralink_gen_begin(g, g_queue_pop_head(&g->armed));
    }
}

char *ralink_gen_get(RalinkGen *g)
{
    guint armed = g_queue_get_length(&g->armed);
    g_autofree char *waiting = armed ? g_strdup_printf(" armed %u", armed)
                                     : g_strdup("");

    return g_strdup_printf("sent %" PRIu64 " held %" PRIu64 " dropped %"
                           PRIu64 " left %" PRIu64 "%s",
                           g->sent, g->held, g->dropped, g->left, waiting);
}

void ralink_gen_set(RalinkGen *g, const char *value, Error **errp)
{
    RalinkGenProgram *p;
    unsigned port;
    uint64_t count, interval;
    const char *hex;
    size_t i, len;
    bool arm = false;
    int pos = 0;

    if (!strcmp(value, "stop")) {
        ralink_gen_stop(g);
        return;
    }
    if (g_str_has_prefix(value, "arm ")) {
        arm = true;
        value += strlen("arm ");
    }
    if (sscanf(value, "%u %" SCNu64 " %" SCNu64 " %n", &port, &count,
               &interval, &pos) != 3 || !pos) {
        error_setg(errp, "gen: \"[arm ]PORT COUNT INTERVAL_NS FRAME_HEX\" "
                   "or \"stop\"");
        return;
    }
    hex = value + pos;
    len = strlen(hex) / 2;
    if (port >= g->ports || !count || interval < 1000 ||
        interval > INT64_MAX / 2 || strlen(hex) % 2 || len < 14 ||
        len > g->max_frame) {
        error_setg(errp, "gen: port 0-%d, count > 0, interval >= 1000 ns, "
                   "a frame of 14-%zu bytes in hex", g->ports - 1,
                   g->max_frame);
        return;
    }
    if (arm && g_queue_get_length(&g->armed) >= RALINK_GEN_MAX_ARMED) {
        error_setg(errp, "gen: %d programs armed already",
                   RALINK_GEN_MAX_ARMED);
        return;
    }
    p = g_malloc(sizeof(*p) + len);
    for (i = 0; i < len; i++) {
        int hi = g_ascii_xdigit_value(hex[2 * i]);
        int lo = g_ascii_xdigit_value(hex[2 * i + 1]);

        if (hi < 0 || lo < 0) {
            g_free(p);
            error_setg(errp, "gen: the frame is not hexadecimal");
            return;
        }
        p->frame[i] = hi << 4 | lo;
    }
    p->port = port;
    p->len = len;
    p->interval = interval;
    p->count = count;
    if (!arm) {
        ralink_gen_stop(g);
    }
    if (!g->run && g_queue_is_empty(&g->armed)) {
        g->sent = g->held = g->dropped = 0;
    }
    if (arm) {
        g_queue_push_tail(&g->armed, p);
    } else {
        ralink_gen_begin(g, p);
    }
}

void ralink_gen_init(RalinkGen *g, const char *name, int ports,
                     size_t max_frame, RalinkGenInject inject, void *opaque)
{
    g->name = name;
    g->ports = ports;
    g->max_frame = max_frame;
    g->inject = inject;
    g->opaque = opaque;
    g->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, ralink_gen_tick, g);
    g_queue_init(&g->armed);
}

void ralink_gen_finalize(RalinkGen *g)
{
    ralink_gen_stop(g);
    timer_free(g->timer);
}
