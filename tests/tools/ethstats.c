// SPDX-License-Identifier: GPL-2.0
/*
 * ethstats: a netdev's driver statistics, as `ethtool -S` prints them,
 * for the initramfs without ethtool (busybox's, on the 32 MiB boards).
 *
 *   ethstats IFACE
 *
 * One "name: value" line a statistic (ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS
 * and ETHTOOL_GSTATS through SIOCETHTOOL). Exit status 1 and a message on
 * stderr if the driver has none or a request fails.
 */
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static int ethtool(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr);
}

int main(int argc, char **argv)
{
	struct ethtool_sset_info *info;
	struct ethtool_gstrings *strings;
	struct ethtool_stats *stats;
	uint32_t i, n;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: ethstats IFACE\n");
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	info = calloc(1, sizeof(*info) + sizeof(uint32_t));
	if (!info)
		return 1;
	info->cmd = ETHTOOL_GSSET_INFO;
	info->sset_mask = 1ULL << ETH_SS_STATS;
	if (ethtool(fd, argv[1], info) || !info->sset_mask) {
		fprintf(stderr, "ethstats: %s: no driver statistics\n", argv[1]);
		return 1;
	}
	n = info->data[0];
	strings = calloc(1, sizeof(*strings) + n * ETH_GSTRING_LEN);
	stats = calloc(1, sizeof(*stats) + n * sizeof(uint64_t));
	if (!strings || !stats)
		return 1;
	strings->cmd = ETHTOOL_GSTRINGS;
	strings->string_set = ETH_SS_STATS;
	strings->len = n;
	stats->cmd = ETHTOOL_GSTATS;
	stats->n_stats = n;
	if (ethtool(fd, argv[1], strings) || ethtool(fd, argv[1], stats)) {
		perror("ethstats: SIOCETHTOOL");
		return 1;
	}
	printf("NIC statistics:\n");
	for (i = 0; i < n; i++)
		printf("     %.*s: %llu\n", ETH_GSTRING_LEN,
		       (char *)strings->data + i * ETH_GSTRING_LEN,
		       (unsigned long long)stats->data[i]);
	close(fd);
	return 0;
}
