/*
 * Ralink/MediaTek switches: the frame generator, a test instrument
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef HW_NET_RALINK_GEN_H
#define HW_NET_RALINK_GEN_H

#include "qemu/queue.h"
#include "qemu/timer.h"

/* What a switch model did with a frame taken in at one of its ports */
typedef enum {
    RALINK_GEN_SENT,        /* taken in and forwarded */
    RALINK_GEN_HELD,        /* it must wait: the CPU port cannot take it */
    RALINK_GEN_DROPPED,     /* taken in and dropped by the port */
} RalinkGenVerdict;

/* Take @len bytes in at front port @port as if from the wire */
typedef RalinkGenVerdict (*RalinkGenInject)(void *opaque, int port,
                                            const uint8_t *buf, size_t len);

/**
 * RalinkGenProgram: one run of the frame generator: @count copies of
 * @frame (@len bytes, no FCS) taken in at front port @port, one every
 * @interval ns of the virtual clock.
 */
typedef struct RalinkGenProgram {
    int port;
    size_t len;
    int64_t interval;
    uint64_t count;
    uint8_t frame[];
} RalinkGenProgram;

/* Programs that may wait armed at once (RalinkGen.armed) */
#define RALINK_GEN_MAX_ARMED 16

/**
 * RalinkGen: a switch model's frame generator, a test instrument rather
 * than part of the silicon (the switch's "gen" property, ralink_gen.c):
 * @run is taken in now, the programs in @armed one after another, each
 * when the guest sends its frames' source a frame.
 */
typedef struct RalinkGen {
    const char *name;       /* the switch, for traces */
    int ports;              /* front ports 0 to @ports - 1 */
    size_t max_frame;       /* the longest frame the ports take, no FCS */
    RalinkGenInject inject;
    void *opaque;
    QEMUTimer *timer;
    RalinkGenProgram *run;  /* running, or NULL */
    GQueue armed;           /* RalinkGenProgram *, waiting to start */
    int64_t next;           /* when @run's next frame is due */
    uint64_t left;          /* frames of @run still to take in */
    uint64_t sent;          /* taken in and forwarded */
    uint64_t held;          /* ticks a frame waited for the CPU port */
    uint64_t dropped;       /* taken in and dropped by the port */
} RalinkGen;

void ralink_gen_init(RalinkGen *g, const char *name, int ports,
                     size_t max_frame, RalinkGenInject inject, void *opaque);
void ralink_gen_finalize(RalinkGen *g);
/* Stop the running program and drop the armed ones (a reset) */
void ralink_gen_stop(RalinkGen *g);
void ralink_gen_start_armed(RalinkGen *g, int port, const uint8_t *buf,
                            size_t len);

/*
 * A frame of @len bytes leaves front port @port (every frame a switch
 * sends: nothing more than a test while no program is armed)
 */
static inline void ralink_gen_trigger(RalinkGen *g, int port,
                                      const uint8_t *buf, size_t len)
{
    if (!g_queue_is_empty(&g->armed)) {
        ralink_gen_start_armed(g, port, buf, len);
    }
}
/* The "gen" property */
char *ralink_gen_get(RalinkGen *g);
void ralink_gen_set(RalinkGen *g, const char *value, Error **errp);

#endif /* HW_NET_RALINK_GEN_H */
