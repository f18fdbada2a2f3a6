// SPDX-License-Identifier: GPL-2.0
/*
 * poke: the model suite's garbage writer. Writes pseudo-random 32-bit
 * words to physical addresses through /dev/mem, one process for a whole
 * register window (busybox devmem is a process a word).
 *
 *   poke SEED DOT_EVERY BASE:END:STRIDE...
 *
 * For each range, every STRIDE bytes from BASE up to END, in order: the
 * linear congruential generator x = x * 1103515245 + 12345 (mod 2^32),
 * started at SEED, steps and its value is written. A dot goes to stdout
 * (flushed) every DOT_EVERY words, so that a reader can tell a guest
 * still writing from one its writes killed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int fd;
static long page;
static unsigned long mapped_at = 1;	/* no page: not page aligned */
static volatile uint32_t *mapped;

static int poke(unsigned long addr, uint32_t val)
{
	unsigned long base = addr & ~(page - 1);

	if (base != mapped_at) {
		void *p;

		if (mapped)
			munmap((void *)mapped, page);
		mapped = NULL;
		p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 base);
		if (p == MAP_FAILED) {
			fprintf(stderr, "poke: mmap 0x%lx: %s\n", base,
				strerror(errno));
			return -1;
		}
		mapped = p;
		mapped_at = base;
	}
	mapped[(addr - base) / 4] = val;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n = 0, every;
	uint32_t x;
	int i;

	if (argc < 4) {
		fprintf(stderr, "usage: poke SEED DOT_EVERY BASE:END:STRIDE...\n");
		return 2;
	}
	x = strtoul(argv[1], NULL, 0);
	every = strtoul(argv[2], NULL, 0);
	page = sysconf(_SC_PAGESIZE);
	fd = open("/dev/mem", O_RDWR | O_SYNC);
	if (fd < 0) {
		perror("poke: /dev/mem");
		return 1;
	}
	for (i = 3; i < argc; i++) {
		long a, e, s;

		if (sscanf(argv[i], "%li:%li:%li", &a, &e, &s) != 3 || s <= 0 ||
		    a & 3 || s & 3) {
			fprintf(stderr, "poke: bad range %s\n", argv[i]);
			return 2;
		}
		for (; a < e; a += s) {
			x = x * 1103515245u + 12345u;
			if (poke(a, x))
				return 1;
			if (every && ++n % every == 0) {
				putchar('.');
				fflush(stdout);
			}
		}
	}
	return 0;
}
