// SPDX-License-Identifier: GPL-2.0
/*
 * rawfuzz: random frames from the guest's side of a switch. Sends frames
 * of pseudo-random length and content through a packet socket on an
 * interface (a DSA conduit: the switch's CPU port gets them as they are),
 * a quarter of them with an 802.1Q-like TPID whose low bits are random
 * (the ESW's special tag names ports there), another quarter with a
 * multicast or broadcast destination.
 *
 *   rawfuzz IFNAME SEED COUNT
 *
 * The generator is poke's (x = x * 1103515245 + 12345 mod 2^32). Prints
 * how many frames the kernel took; exits 0 if it took them all.
 */
#include <arpa/inet.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define MIN_LEN		14
#define MAX_LEN		1518	/* the conduit's MTU (1504: DSA's 1500 + 4) + 14 */

static uint32_t x;

static uint32_t next(void)
{
	x = x * 1103515245u + 12345u;
	return x >> 8;
}

int main(int argc, char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	unsigned char f[MAX_LEN];
	unsigned long i, n, sent = 0;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: %s IFNAME SEED COUNT\n", argv[0]);
		return 2;
	}
	x = strtoul(argv[2], NULL, 0);
	n = strtoul(argv[3], NULL, 0);
	sll.sll_ifindex = if_nametoindex(argv[1]);
	sll.sll_halen = ETH_ALEN;
	if (!sll.sll_ifindex) {
		perror(argv[1]);
		return 2;
	}
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0) {
		perror("socket");
		return 2;
	}
	for (i = 0; i < n; i++) {
		size_t len = MIN_LEN + next() % (MAX_LEN - MIN_LEN + 1);
		size_t j;

		for (j = 0; j < len; j++)
			f[j] = next();
		switch (next() % 4) {
		case 0:	/* a special tag: 0x81 and random low bits */
			f[12] = 0x81;
			break;
		case 1:	/* a group destination */
			f[0] |= 1;
			break;
		}
		memcpy(sll.sll_addr, f, ETH_ALEN);
		if (sendto(fd, f, len, 0, (struct sockaddr *)&sll,
			   sizeof(sll)) == (ssize_t)len)
			sent++;
		if (i % 64 == 63)
			usleep(1000);
	}
	printf("rawfuzz: %lu of %lu frames sent\n", sent, n);
	close(fd);
	return sent == n ? 0 : 1;
}
