// SPDX-License-Identifier: GPL-2.0
/*
 * soak: the host side of a soak (tests/suites/wire.py), numbered and
 * checksummed frames from one front port's peer to another's, credit-paced.
 *
 * Built for the host (not the guest) by tests/lib/peer.py. The two peers'
 * UDP sockets (QEMU's -netdev socket backends send each frame a port
 * transmits as one datagram to them, and take each datagram sent to QEMU's
 * address as a frame the port receives) are inherited as file descriptors:
 *
 *   soak TX_FD RX_FD QEMU_PORT DST_MAC SRC_MAC FRAMES WINDOW STALL_MS
 *
 * TX_FD sends FRAMES frames to 127.0.0.1:QEMU_PORT, never more than WINDOW
 * of them not yet received on RX_FD (a credit: what arrives releases more,
 * so no queue on the way, the host's socket buffers included, ever fills).
 * When nothing arrives for STALL_MS, what is in flight counts as lost and
 * its credit is given back. Frame SEQ (62 bytes): DST_MAC, SRC_MAC,
 * ethertype 0x88b6 (local experimental 2), SEQ (32 bits, big endian), ten
 * times SEQ * 2654435761 mod 2^32, and the CRC-32 of those 44 bytes. RX_FD
 * checks every frame with those addresses and ethertype and counts it
 * corrupted (too short, SEQ out of range, CRC wrong), duplicated, or new;
 * other frames are ignored. It prints one line:
 *
 *   received R corrupted C duplicated D lost L seconds S
 *
 * and exits 0 (2 on bad arguments, 1 on a failed system call). It does in
 * C what a Python peer did at 30 us of host CPU a frame; batches of
 * datagrams go through sendmmsg() and recvmmsg().
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#define SOAK_ETYPE	0x88b6
#define SOAK_LEN	62
#define SOAK_BODY	14	/* offset of the body: SEQ and its derivatives */
#define SOAK_CRC	58	/* offset of the CRC-32 of the body */
#define SOAK_WORDS	10
#define SOAK_MULT	2654435761u
#define MAX_WINDOW	256
#define RX_BATCH	64
#define RX_BUF		2048
#define GATHER_US	100	/* what a burst takes to come back (below) */

static uint32_t crc_table[256];

static void crc32_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}

/* The CRC-32 of IEEE 802.3 (zlib's crc32()). */
static uint32_t crc32(const uint8_t *p, size_t len)
{
	uint32_t c = 0xffffffffu;

	while (len--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

static void put32(uint8_t *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ntohl(v);
}

static int parse_mac(const char *s, uint8_t *mac)
{
	return sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &mac[0], &mac[1],
		      &mac[2], &mac[3], &mac[4], &mac[5]) == 6 ? 0 : -1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void make_frame(uint8_t *f, const uint8_t *hdr, uint32_t seq)
{
	memcpy(f, hdr, SOAK_BODY);
	put32(f + SOAK_BODY, seq);
	for (int i = 1; i <= SOAK_WORDS; i++)
		put32(f + SOAK_BODY + 4 * i, seq * SOAK_MULT);
	put32(f + SOAK_CRC, crc32(f + SOAK_BODY, SOAK_CRC - SOAK_BODY));
}

struct tally {
	long got, bad, dup;
	uint8_t *seen;
	long n;
};

static void check_frame(struct tally *t, const uint8_t *hdr,
			const uint8_t *f, size_t len)
{
	uint32_t seq;

	if (len < SOAK_BODY || memcmp(f, hdr, SOAK_BODY))
		return;
	t->got++;
	seq = len >= SOAK_BODY + 4 ? get32(f + SOAK_BODY) : t->n;
	if (len < SOAK_LEN || (long)seq >= t->n ||
	    crc32(f + SOAK_BODY, SOAK_CRC - SOAK_BODY) != get32(f + SOAK_CRC))
		t->bad++;
	else if (t->seen[seq])
		t->dup++;
	else
		t->seen[seq] = 1;
}

/* Take what RX_FD holds without waiting: the frames taken, -1 on error. */
static int take(int fd, struct tally *t, const uint8_t *hdr,
		struct mmsghdr *msgs, struct iovec *iov,
		uint8_t (*bufs)[RX_BUF])
{
	int r;

	memset(msgs, 0, RX_BATCH * sizeof(*msgs));
	for (int i = 0; i < RX_BATCH; i++) {
		iov[i].iov_base = bufs[i];
		iov[i].iov_len = RX_BUF;
		msgs[i].msg_hdr.msg_iov = &iov[i];
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	r = recvmmsg(fd, msgs, RX_BATCH, MSG_DONTWAIT, NULL);
	if (r < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	for (int i = 0; i < r; i++)
		check_frame(t, hdr, bufs[i], msgs[i].msg_len);
	return r;
}

/*
 * Take what RX_FD holds; when it holds nothing, wait up to @ms for a frame
 * and then GATHER_US more for the rest of its burst. Returns the frames
 * taken, -1 on error. A peer asleep on its socket costs the sender (QEMU)
 * a wake-up for each frame; one asleep on a timer does not.
 */
static int receive(int fd, struct tally *t, const uint8_t *hdr, int ms)
{
	static uint8_t bufs[RX_BATCH][RX_BUF];
	const struct timespec gather = { 0, GATHER_US * 1000 };
	struct mmsghdr msgs[RX_BATCH];
	struct iovec iov[RX_BATCH];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int r;

	r = take(fd, t, hdr, msgs, iov, bufs);
	if (r)
		return r;
	r = poll(&pfd, 1, ms);
	if (r < 0)
		return errno == EINTR ? 0 : -1;
	if (!r)
		return 0;
	nanosleep(&gather, NULL);
	return take(fd, t, hdr, msgs, iov, bufs);
}


int main(int argc, char **argv)
{
	static uint8_t frames[MAX_WINDOW][SOAK_LEN];
	struct mmsghdr msgs[MAX_WINDOW];
	struct iovec iov[MAX_WINDOW];
	struct sockaddr_in qemu = { .sin_family = AF_INET };
	uint8_t hdr[SOAK_BODY];
	long sent = 0, forgiven = 0, window, lost = 0, progress = 0;
	struct tally t = { 0 };
	int txfd, rxfd, stall_ms;
	double t0, last;

	if (argc != 9 || parse_mac(argv[4], hdr) ||
	    parse_mac(argv[5], hdr + 6)) {
		fprintf(stderr, "usage: soak TX_FD RX_FD QEMU_PORT DST_MAC "
			"SRC_MAC FRAMES WINDOW STALL_MS\n");
		return 2;
	}
	txfd = atoi(argv[1]);
	rxfd = atoi(argv[2]);
	qemu.sin_port = htons(atoi(argv[3]));
	qemu.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	t.n = strtol(argv[6], NULL, 0);
	window = strtol(argv[7], NULL, 0);
	stall_ms = atoi(argv[8]);
	if (t.n < 0 || window <= 0 || window > MAX_WINDOW || stall_ms <= 0) {
		fprintf(stderr, "soak: WINDOW 1-%d, STALL_MS > 0\n",
			MAX_WINDOW);
		return 2;
	}
	hdr[12] = SOAK_ETYPE >> 8;
	hdr[13] = SOAK_ETYPE & 0xff;
	t.seen = calloc(t.n ? t.n : 1, 1);
	if (!t.seen)
		return 1;
	crc32_init();

	t0 = last = now();
	/* A duplicate is no credit: only the frames sent come back once. */
	while (sent < t.n || t.got - t.dup < sent - forgiven) {
		long inflight = sent - forgiven - (t.got - t.dup);
		long burst = 0;

		/* Refill once half the window has come back. */
		if (sent < t.n && inflight <= window / 2) {
			burst = window - inflight;
			if (burst > t.n - sent)
				burst = t.n - sent;
		}
		for (long i = 0; i < burst; i++) {
			make_frame(frames[i], hdr, sent + i);
			iov[i].iov_base = frames[i];
			iov[i].iov_len = SOAK_LEN;
			memset(&msgs[i], 0, sizeof(msgs[i]));
			msgs[i].msg_hdr.msg_name = &qemu;
			msgs[i].msg_hdr.msg_namelen = sizeof(qemu);
			msgs[i].msg_hdr.msg_iov = &iov[i];
			msgs[i].msg_hdr.msg_iovlen = 1;
		}
		for (long i = 0; i < burst;) {
			int r = sendmmsg(txfd, msgs + i, burst - i, 0);

			if (r < 0 && errno != EINTR) {
				perror("soak: sendmmsg");
				return 1;
			}
			if (r > 0)
				i += r;
		}
		sent += burst;

		if (receive(rxfd, &t, hdr, 100) < 0) {
			perror("soak: recvmmsg");
			return 1;
		}
		if (t.got != progress) {
			progress = t.got;
			last = now();
		} else if (now() - last >= stall_ms / 1000.0) {
			/* Lost on the way: give their credit back. */
			forgiven = sent - (t.got - t.dup);
			last = now();
			if (sent >= t.n)
				break;
		}
	}
	for (long i = 0; i < t.n; i++)
		lost += !t.seen[i];
	printf("received %ld corrupted %ld duplicated %ld lost %ld "
	       "seconds %.1f\n", t.got, t.bad, t.dup, lost, now() - t0);
	return 0;
}
