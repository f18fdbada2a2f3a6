// SPDX-License-Identifier: GPL-2.0
/*
 * bench-udp: the guest's side of `make bench`.
 *
 *   bench-udp sink PORT COUNT IDLE_MS [DST_IP DST_PORT]
 *	bind UDP PORT, start the traffic if DST_IP is given (below),
 *	receive the first datagram, open the window,
 *	receive until COUNT datagrams in all or IDLE_MS without one, close
 *	the window, print "received N in T us" (N: the datagrams received
 *	while the window was open, all but the first; T: how long it was
 *	open): what the window holds does not depend on when the first
 *	one came
 *   bench-udp source DST_IP PORT SIZE COUNT [WARM]
 *	connected UDP socket, send WARM datagrams (none by default), open
 *	the window, send COUNT more of SIZE payload bytes (retrying on
 *	ENOBUFS/EAGAIN), close the window, print "sent N in T us" (N: those
 *	in the window); the warm-up lets interrupt moderation settle on
 *	the traffic before the window opens
 *   bench-udp window open|close
 *	just the marker, for rows where the host sends and the guest is
 *	passive
 *   bench-udp hold-us DELAY_US USECS [DST_IP DST_PORT]
 *	start the traffic if DST_IP is given, sleep DELAY_US, open the
 *	window, sleep USECS, close it, print "window closed after T us": a
 *	window of a fixed length of the guest's clock, for traffic paced on
 *	that clock
 *
 * Starting the traffic: on the next whole second of the guest's clock,
 * send an empty datagram to DST_IP:DST_PORT, the station the switch
 * model's frame generator stands for (an armed program starts when a
 * frame to its frames' source leaves its port), so that the frames come
 * at the same guest instructions in every run.
 *
 * The markers are instructions no compiler emits (writes to $zero), which
 * bench/plugin/insn_window.c watches for.
 */

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static inline void window_open(void)
{
	__asm__ __volatile__(".set push\n\t.set noreorder\n\t"
			     ".word 0x34005a01\n\t.set pop" ::: "memory");
}

static inline void window_close(void)
{
	__asm__ __volatile__(".set push\n\t.set noreorder\n\t"
			     ".word 0x34005a02\n\t.set pop" ::: "memory");
}

/* Guest microseconds, to tell the bench how long a window was open */
static long long usecs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: bench-udp sink PORT COUNT IDLE_MS [DST_IP DST_PORT]\n"
		"       bench-udp source DST_IP PORT SIZE COUNT [WARM]\n"
		"       bench-udp window open|close\n"
		"       bench-udp hold-us DELAY_US USECS [DST_IP DST_PORT]\n");
	exit(2);
}

static long num(const char *s)
{
	char *end;
	long v = strtol(s, &end, 0);

	if (*s == '\0' || *end != '\0' || v < 0)
		usage();
	return v;
}

static void sleep_us(long us)
{
	struct timespec ts = { .tv_sec = us / 1000000,
			       .tv_nsec = us % 1000000 * 1000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts) == EINTR)
		;
}

/* Start the traffic (see the top): 0, or -1 with errno set */
static int trigger(const char *dst, int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	int fd, ret;

	sa.sin_port = htons(port);
	if (inet_pton(AF_INET, dst, &sa.sin_addr) != 1)
		usage();
	/*
	 * On a whole second of the guest's clock, in step with the
	 * kernel's periodic work that round_jiffies() aligns
	 */
	sleep_us(1000000 - usecs() % 1000000);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	ret = sendto(fd, "", 0, 0, (struct sockaddr *)&sa, sizeof(sa));
	close(fd);
	return ret < 0 ? -1 : 0;
}

static int sink(int port, long count, int idle_ms, const char *dst,
		int dport)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	static char buf[65536];
	int rcvbuf = 1 << 20;
	long long t0, t1;
	long n = 0;
	int fd;

	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	sa.sin_port = htons(port);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("bind");
		return 1;
	}
	printf("listening\n");
	fflush(stdout);
	if (dst && trigger(dst, dport) < 0) {
		perror("trigger");
		return 1;
	}

	if (count && recv(fd, buf, sizeof(buf), 0) < 0) {
		perror("recv");
		return 1;
	}
	t0 = usecs();
	window_open();
	while (n + 1 < count) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t len;
		int r;

		r = poll(&p, 1, idle_ms);
		if (r == 0)
			break;
		if (r < 0 && errno != EINTR)
			break;
		len = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (len < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			perror("recv");
			break;
		}
		n++;
	}
	window_close();
	t1 = usecs();

	printf("received %ld in %lld us\n", n, t1 - t0);
	close(fd);
	return 0;
}

static long send_n(int fd, const char *buf, long size, long count)
{
	long n = 0;

	while (n < count) {
		if (send(fd, buf, size, 0) < 0) {
			if (errno == ENOBUFS || errno == EAGAIN ||
			    errno == EINTR)
				continue;
			perror("send");
			break;
		}
		n++;
	}
	return n;
}

static int source(const char *dst, int port, long size, long count,
		  long warm)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	long long t0, t1;
	char *buf;
	long n = 0;
	int fd;

	if (size > 65507)
		usage();
	buf = calloc(1, size ? size : 1);
	if (!buf)
		return 1;
	sa.sin_port = htons(port);
	if (inet_pton(AF_INET, dst, &sa.sin_addr) != 1)
		usage();
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("connect");
		return 1;
	}

	if (send_n(fd, buf, size, warm) < warm)
		return 1;
	t0 = usecs();
	window_open();
	n = send_n(fd, buf, size, count);
	window_close();
	t1 = usecs();

	printf("sent %ld in %lld us\n", n, t1 - t0);
	close(fd);
	free(buf);
	return 0;
}

static int hold_us(long delay, long length, const char *dst, int port)
{
	long long t0, t1;

	if (dst && trigger(dst, port) < 0) {
		perror("trigger");
		return 1;
	}
	sleep_us(delay);
	t0 = usecs();
	window_open();
	sleep_us(length);
	window_close();
	t1 = usecs();
	printf("window closed after %lld us\n", t1 - t0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "sink"))
		return sink(num(argv[2]), num(argv[3]), num(argv[4]), NULL, 0);
	if (argc == 7 && !strcmp(argv[1], "sink"))
		return sink(num(argv[2]), num(argv[3]), num(argv[4]), argv[5],
			    num(argv[6]));
	if ((argc == 6 || argc == 7) && !strcmp(argv[1], "source"))
		return source(argv[2], num(argv[3]), num(argv[4]),
			      num(argv[5]), argc == 7 ? num(argv[6]) : 0);
	if (argc == 3 && !strcmp(argv[1], "window")) {
		if (!strcmp(argv[2], "open"))
			window_open();
		else if (!strcmp(argv[2], "close"))
			window_close();
		else
			usage();
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "hold-us"))
		return hold_us(num(argv[2]), num(argv[3]), NULL, 0);
	if (argc == 6 && !strcmp(argv[1], "hold-us"))
		return hold_us(num(argv[2]), num(argv[3]), argv[4],
			       num(argv[5]));
	usage();
	return 0;
}
