<?php

/**
 * @generate-class-entries
 * @undocumentable
 */

namespace {
    /**
     * @var int
     * @cvalue GP_FORMAT_MOD9
     */
    const GPUPOST_MOD9 = UNKNOWN;

    /**
     * @var int
     * @cvalue GP_FORMAT_S9
     */
    const GPUPOST_S9 = UNKNOWN;

    /**
     * @var int
     * @cvalue GP_FORMAT_QS
     */
    const GPUPOST_QS = UNKNOWN;

    /**
     * @var int
     * @cvalue GP_FORMAT_WAH
     */
    const GPUPOST_WAH = UNKNOWN;

    /**
     * @var int
     * @cvalue GP_FORMAT_VBYTE
     */
    const GPUPOST_VBYTE = UNKNOWN;

    /**
     * @var int
     * @cvalue GP_FORMAT_GROUP_VARINT
     */
    const GPUPOST_GROUP_VARINT = UNKNOWN;

    /**
     * @var int
     * @cvalue GP_MODE_VALUES
     */
    const GPUPOST_VALUES = UNKNOWN;

    /**
     * @var int
     * @cvalue GP_MODE_DOCS
     */
    const GPUPOST_DOCS = UNKNOWN;

    /**
     * @var int
     * @cvalue GP_MODE_POSTINGS
     */
    const GPUPOST_POSTINGS = UNKNOWN;

    /**
     * @var int
     * @cvalue GP_OP_AND
     */
    const GPUPOST_AND = UNKNOWN;

    /**
     * @var int
     * @cvalue GP_OP_OR
     */
    const GPUPOST_OR = UNKNOWN;

    /**
     * @var int
     * @cvalue GP_OP_PHRASE
     */
    const GPUPOST_PHRASE = UNKNOWN;

    function gpu_decode_postings(string $blob, int $format = GPUPOST_MOD9, int $mode = GPUPOST_VALUES): array {}

    function gpu_decode_postings_batch(array $blobs, int $format = GPUPOST_MOD9, int $mode = GPUPOST_VALUES): array {}

    function gpu_encode_postings(array $data, int $format = GPUPOST_MOD9, int $mode = GPUPOST_VALUES, array $options = []): string {}

    function gpu_prefix_sum(array $values, bool $inclusive = true): array {}

    function gpu_tokenize(string $text, string $tokenizer = "unicode61"): array {}

    function gpu_wah_query(array $blobs, int $op = GPUPOST_OR): array {}

    function gpu_wah_decompress(string $blob): string {}

    function gpu_info(): array {}

    function gpu_postings_slice(string $postings, int $offset, int $last_offset, int $limit = 200, int $mode = GPUPOST_POSTINGS, array $options = []): array {}

    function gpu_postings_slice_batch(string $postings, array $requests, int $mode = GPUPOST_POSTINGS, array $options = []): array {}

    function gpu_postings_seek(string $postings, int $offset, int $last_offset, int $doc, array $options = []): array|false {}

    function gpu_yioop_snippet(string $text, array $words, int $length): ?string {}
}

namespace GpuPost {
    class Exception extends \RuntimeException
    {
    }

    /**
     * @strict-properties
     * @not-serializable
     */
    final class Index implements \Countable
    {
        public function __construct(array $lists, int $format = GPUPOST_MOD9, array $options = []) {}

        public static function open(string $path, array $options = []): Index {}

        public static function fromDocuments(array $docs, array $options = []): Index {}

        public static function openYioopShard(string $path, array $options = []): Index {}

        public static function openYioopBundle(string $dir, array $options = []): Index {}

        public function save(string $path, array $options = []): void {}

        public function search(array|string $query, array $options = []): array {}

        public function searchBatch(array $queries, array $options = []): array {}

        public function count(array|string $query = [], array $options = []): int {}

        public function info(): array {}

        public function attributes(array $docs): array {}

        public function yioopSummaries(array $docs): array {}

        public function yioopDocs(array $docs): array {}

        public function yioopGenerations(): array {}

        public function yioopSearch(array $wordStruct, array $options = []): array {}
    }
}
