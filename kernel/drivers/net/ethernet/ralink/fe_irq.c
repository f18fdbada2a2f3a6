// SPDX-License-Identifier: GPL-2.0
/*
 * Ralink/MediaTek SoC frame engine Ethernet driver: interrupts
 *
 * One interrupt line for RX and TX completion. Each direction's source is
 * masked while its NAPI runs; the delay interrupt registers coalesce, set
 * by ethtool -C or by net DIM.
 */

#include <linux/interrupt.h>

#include "fe_core.h"

/**
 * fe_irq_set_shared - set one direction's interrupt enable bits in an
 *	enable register both directions share
 * @eth: the frame engine
 * @tx: TX's bits (else RX's)
 * @bits: the bits
 *
 * The PDMA-only SoCs have one enable register: the other direction's
 * bits come from a shadow copy, under a lock (the interrupt handler and
 * both NAPI polls write it). fe_irq_set() calls this.
 */
void fe_irq_set_shared(struct fe_eth *eth, bool tx, u32 bits)
{
	unsigned long flags;

	spin_lock_irqsave(&eth->irq_lock, flags);
	if (tx)
		eth->tx_irq_en = bits;
	else
		eth->rx_irq_en = bits;
	fe_w32(eth, eth->rx_irq_en | eth->tx_irq_en, eth->rx_irq_mask);
	spin_unlock_irqrestore(&eth->irq_lock, flags);
}

void fe_irq_disable_all(struct fe_eth *eth)
{
	const struct fe_reg_map *regs = eth->soc->regs;

	fe_irq_set(eth, false, 0);
	fe_irq_set(eth, true, 0);
	if (regs->fe_int_enable)
		fe_w32(eth, 0, regs->fe_int_enable);
}

/*
 * The source is masked whether or not its NAPI could be scheduled: a poll
 * that completes while fe_dma_down() disables NAPI unmasks it again, and a
 * pending level interrupt left unmasked with NAPI disabled would fire for
 * ever (on one CPU, before the DMA is ever stopped). The poll unmasks it
 * when it completes.
 */
irqreturn_t fe_irq(int irq, void *priv)
{
	struct fe_eth *eth = priv;
	irqreturn_t ret = IRQ_NONE;

	if (fe_r32(eth, eth->rx_irq_status) & eth->rx_irq_bit) {
		fe_irq_set(eth, false, 0);
		if (napi_schedule_prep(&eth->rx_napi)) {
			eth->rx_coal.events++;
			__napi_schedule(&eth->rx_napi);
		}
		ret = IRQ_HANDLED;
	}
	if (fe_r32(eth, eth->tx_irq_status) & eth->tx_irq_bit) {
		fe_irq_set(eth, true, 0);
		if (napi_schedule_prep(&eth->tx_napi)) {
			eth->tx_coal.events++;
			__napi_schedule(&eth->tx_napi);
		}
		ret = IRQ_HANDLED;
	}
	return ret;
}

static u32 fe_coal_field(const struct fe_coal *c, u32 en, u32 pint, u32 ptime)
{
	if (!c->usecs && !c->frames)
		return 0;

	return en | FIELD_PREP(pint, min_t(u32, c->frames, FE_DLY_PINT_MAX)) |
	       FIELD_PREP(ptime, min_t(u32, DIV_ROUND_UP(c->usecs,
							 FE_DLY_PTIME_US),
				       FE_DLY_PTIME_MAX));
}

void fe_write_coalesce(struct fe_eth *eth)
{
	const struct fe_reg_map *regs = eth->soc->regs;
	u32 val;

	val = fe_coal_field(&eth->rx_coal, FE_DLY_RX_EN, FE_DLY_RX_PINT,
			    FE_DLY_RX_PTIME) |
	      fe_coal_field(&eth->tx_coal, FE_DLY_TX_EN, FE_DLY_TX_PINT,
			    FE_DLY_TX_PTIME);
	fe_w32(eth, val, regs->rx_irq.delay);
	if (regs->tx_irq.delay != regs->rx_irq.delay)
		fe_w32(eth, val, regs->tx_irq.delay);

	/* Without coalescing the delayed interrupts are not raised */
	eth->rx_irq_bit = (val & FE_DLY_RX_EN) ? regs->rx_irq.done_dly :
						  regs->rx_irq.done;
	eth->tx_irq_bit = (val & FE_DLY_TX_EN) ? regs->tx_irq.done_dly :
						  regs->tx_irq.done;
}

/*
 * DIM's profiles as delay times, one step of the 20 us unit apart at
 * least. net_dim's own EQE profiles (1, 8, 64, 128, 256 us) round to 20,
 * 20, 80, 140 and 260 us here: DIM cannot tell its first two apart and
 * parks on them. The frame count stays at the most there is (net_dim's
 * own profiles do not tune it either).
 */
static const u16 fe_dim_usecs[NET_DIM_PARAMS_NUM_PROFILES] = {
	20, 40, 80, 140, 260
};

static void fe_dim_set(struct fe_coal *c, int ix)
{
	c->usecs = fe_dim_usecs[ix];
	c->frames = FE_DLY_PINT_MAX;
}

/*
 * (Re)start DIM from the shortest delay. From profile 0 its first move is
 * to the right, towards longer delays, and it goes on while the traffic
 * gains from them; from any other profile its first move is to the left.
 */
static void fe_dim_start(struct fe_coal *c)
{
	c->dim.profile_ix = 0;
	c->dim.state = DIM_START_MEASURE;
	c->adaptive = true;
	fe_dim_set(c, c->dim.profile_ix);
}

static void fe_dim_work(struct work_struct *work)
{
	struct dim *dim = container_of(work, struct dim, work);
	struct fe_coal *c = container_of(dim, struct fe_coal, dim);
	struct fe_eth *eth = dim->priv;

	spin_lock(&eth->coal_lock);
	fe_dim_set(c, dim->profile_ix);
	fe_write_coalesce(eth);
	spin_unlock(&eth->coal_lock);
	dim->state = DIM_START_MEASURE;
}

void fe_dim_init(struct fe_eth *eth, struct fe_coal *c)
{
	INIT_WORK(&c->dim.work, fe_dim_work);
	c->dim.priv = eth;
	fe_dim_start(c);
}

static void fe_coal_update(struct fe_coal *c, bool adaptive, u32 usecs,
			   u32 frames)
{
	if (adaptive && !c->adaptive) {
		fe_dim_start(c);
	} else if (!adaptive) {
		c->usecs = usecs;
		c->frames = frames;
		c->adaptive = false;
	}
}

/**
 * fe_set_coalesce - apply the coalescing settings ethtool asks for
 * @eth: the frame engine
 * @ec: the settings; the times and counts of a direction whose adaptive
 *	coalescing stays on are DIM's to choose and are not used
 *
 * Called under RTNL. While the DMA runs, the NAPI contexts are paused
 * (and DIM's work with them) so that the interrupt bit they unmask and
 * whether they sample for DIM change with the settings.
 */
void fe_set_coalesce(struct fe_eth *eth, const struct ethtool_coalesce *ec)
{
	bool running = eth->dma_running;

	if (running) {
		napi_disable(&eth->rx_napi);
		napi_disable(&eth->tx_napi);
		cancel_work_sync(&eth->rx_coal.dim.work);
		cancel_work_sync(&eth->tx_coal.dim.work);
	}
	fe_coal_update(&eth->rx_coal, ec->use_adaptive_rx_coalesce,
		       ec->rx_coalesce_usecs, ec->rx_max_coalesced_frames);
	fe_coal_update(&eth->tx_coal, ec->use_adaptive_tx_coalesce,
		       ec->tx_coalesce_usecs, ec->tx_max_coalesced_frames);
	spin_lock(&eth->coal_lock);
	fe_write_coalesce(eth);
	spin_unlock(&eth->coal_lock);
	if (running) {
		napi_enable(&eth->tx_napi);
		napi_enable(&eth->rx_napi);
	}
	fe_rx_irq_enable(eth);
	fe_tx_irq_enable(eth);
}

