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

/*
 * The strings of string set @sset (*@n of them), or NULL with a message
 * naming @what the driver does not have
 */
static struct ethtool_gstrings *strings_of(int fd, const char *ifname,
					   int sset, const char *what,
					   uint32_t *n)
{
	struct {
		struct ethtool_sset_info info;
		uint32_t len;
	} q = { .info = { .cmd = ETHTOOL_GSSET_INFO,
			  .sset_mask = 1ULL << sset } };
	struct ethtool_gstrings *strings;

	if (ethtool(fd, ifname, &q) || !q.info.sset_mask) {
		fprintf(stderr, "ethstats: %s: no %s\n", ifname, what);
		return NULL;
	}
	*n = q.len;
	strings = calloc(1, sizeof(*strings) + *n * ETH_GSTRING_LEN);
	if (!strings)
		return NULL;
	strings->cmd = ETHTOOL_GSTRINGS;
	strings->string_set = sset;
	strings->len = *n;
	if (ethtool(fd, ifname, strings)) {
		perror("ethstats: SIOCETHTOOL");
		return NULL;
	}
	return strings;
}

static int print_features(int fd, const char *ifname)
{
	struct ethtool_gstrings *strings;
	struct ethtool_gfeatures *f;
	uint32_t i, n, blocks;

	strings = strings_of(fd, ifname, ETH_SS_FEATURES, "features", &n);
	if (!strings)
		return 1;
	blocks = (n + 31) / 32;
	f = calloc(1, sizeof(*f) + blocks * sizeof(f->features[0]));
	if (!f)
		return 1;
	f->cmd = ETHTOOL_GFEATURES;
	f->size = blocks;
	if (ethtool(fd, ifname, f)) {
		perror("ethstats: SIOCETHTOOL");
		return 1;
	}
	printf("Features for %s:\n", ifname);
	for (i = 0; i < n; i++) {
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
	strings = strings_of(fd, argv[1], ETH_SS_STATS, "driver statistics",
			     &n);
	if (!strings)
		return 1;
	stats = calloc(1, sizeof(*stats) + n * sizeof(uint64_t));
	if (!stats)
		return 1;
	stats->cmd = ETHTOOL_GSTATS;
	stats->n_stats = n;
	if (ethtool(fd, argv[1], stats)) {
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
