// SPDX-License-Identifier: GPL-2.0
/*
 * ethstats: a netdev's driver statistics, as `ethtool -S` prints them,
 * for the initramfs without ethtool (busybox's, on the 32 MiB boards).
 *
 *   ethstats IFACE
 *   ethstats -k IFACE
 *
 * One "name: value" line a statistic (ETHTOOL_GSSET_INFO, ETHTOOL_GSTRINGS
 * and ETHTOOL_GSTATS through SIOCETHTOOL); with -k, as `ethtool -k` prints
 * them, one "name: on|off" line a netdev feature, " [fixed]" after those
 * the driver does not let change (ETHTOOL_GFEATURES). Exit status 1 and a
 * message on stderr if the driver has none or a request fails.
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

/* The number of strings in string set @sset, or -1 */
static int sset_len(int fd, const char *ifname, int sset)
{
	struct {
		struct ethtool_sset_info info;
		uint32_t len;
	} q = { .info = { .cmd = ETHTOOL_GSSET_INFO,
			  .sset_mask = 1ULL << sset } };

	if (ethtool(fd, ifname, &q) || !q.info.sset_mask)
		return -1;
	return q.len;
}

static int print_features(int fd, const char *ifname)
{
	struct ethtool_gstrings *strings;
	struct ethtool_gfeatures *f;
	uint32_t i, blocks;
	int n;

	n = sset_len(fd, ifname, ETH_SS_FEATURES);
	if (n < 0) {
		fprintf(stderr, "ethstats: %s: no features\n", ifname);
		return 1;
	}
	blocks = (n + 31) / 32;
	strings = calloc(1, sizeof(*strings) + n * ETH_GSTRING_LEN);
	f = calloc(1, sizeof(*f) + blocks * sizeof(f->features[0]));
	if (!strings || !f)
		return 1;
	strings->cmd = ETHTOOL_GSTRINGS;
	strings->string_set = ETH_SS_FEATURES;
	strings->len = n;
	f->cmd = ETHTOOL_GFEATURES;
	f->size = blocks;
	if (ethtool(fd, ifname, strings) || ethtool(fd, ifname, f)) {
		perror("ethstats: SIOCETHTOOL");
		return 1;
	}
	printf("Features for %s:\n", ifname);
	for (i = 0; i < (uint32_t)n; i++) {
		uint32_t bit = 1u << (i % 32);
		const struct ethtool_get_features_block *b = &f->features[i / 32];

		printf("%.*s: %s%s\n", ETH_GSTRING_LEN,
		       (char *)strings->data + i * ETH_GSTRING_LEN,
		       b->active & bit ? "on" : "off",
		       !(b->available & bit) || b->never_changed & bit ?
		       " [fixed]" : "");
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ethtool_sset_info *info;
	struct ethtool_gstrings *strings;
	struct ethtool_stats *stats;
	uint32_t i, n;
	int fd;

	if (argc != 2 && (argc != 3 || strcmp(argv[1], "-k"))) {
		fprintf(stderr, "usage: ethstats [-k] IFACE\n");
		return 2;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0) {
		perror("socket");
		return 1;
	}
	if (argc == 3)
		return print_features(fd, argv[2]);
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
