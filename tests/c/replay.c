/* A libFuzzer harness's checks without libFuzzer (tests/c/run.sh): every file of a seed folder,
 * then COUNT inputs from a fixed pseudo-random sequence, each of 1 to 600 bytes, through the
 * harness's LLVMFuzzerTestOneInput; a failed check aborts as it does under the fuzzer.
 *   replay SEED_DIR COUNT */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The harnesses' custom mutators call libFuzzer's; replaying never mutates. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
{
	(void)data;
	(void)max_size;
	return size;
}

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: replay SEED_DIR COUNT\n");
		return 2;
	}
	size_t seeds = 0, count = (size_t)strtoull(argv[2], NULL, 10);
	DIR *d = opendir(argv[1]);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.') continue;
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", argv[1], e->d_name);
		FILE *f = fopen(path, "rb");
		if (!f) continue;
		static uint8_t buf[1 << 20];
		size_t n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		uint8_t *copy = malloc(n ? n : 1);   /* an exact allocation: ASan sees any overread */
		memcpy(copy, buf, n);
		LLVMFuzzerTestOneInput(copy, n);
		free(copy);
		seeds++;
	}
	if (d) closedir(d);
	uint64_t s = 0x9E3779B97F4A7C15ull;
	for (size_t i = 0; i < count; i++) {
		size_t n = 1 + next(&s) % 600;
		uint8_t *in = malloc(n);
		for (size_t j = 0; j < n; j++) in[j] = (uint8_t)next(&s);
		LLVMFuzzerTestOneInput(in, n);
		free(in);
	}
	printf("%zu seeds and %zu generated inputs, every check held\n", seeds, count);
	return 0;
}
