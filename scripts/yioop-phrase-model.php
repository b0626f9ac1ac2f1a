<?php
/* Yioop's PhraseModel outside an installation (no database: its searches read the bundle alone),
 * recording what its getSummariesByHash works with: the word structs it gives getQueryIterator
 * and the ranked pages it hands getSummariesFromOffsets (before summaries, deduplication and the
 * page cut). Required after yioop_load() (scripts/yioop-bundle-lib.php). */
namespace {
    use seekquarry\yioop\configs as C;
    use seekquarry\yioop\library as L;
    use seekquarry\yioop\models as M;

    spl_autoload_register(function (string $class): void {
        $prefix = 'seekquarry\\yioop\\';
        if (strncmp($class, $prefix, strlen($prefix))) return;
        $file = C\BASE_DIR . '/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) require_once $file;
    });
    require_once C\BASE_DIR . '/library/LocaleFunctions.php';

    class YioopRecordingPhraseModel extends M\PhraseModel
    {
        public array $structs = [];
        public ?array $ranked = null;

        public function getQueryIterator($word_structs, $filter, $raw, &$to_retrieve, $queue_servers = [],
                                         $original_query = "", $save_timestamp_name = "")
        {
            $this->structs = $word_structs;
            return parent::getQueryIterator($word_structs, $filter, $raw, $to_retrieve, $queue_servers,
                $original_query, $save_timestamp_name);
        }

        public function getSummariesFromOffsets(&$pages, &$queue_servers, $raw, $groups_with_docs,
                                                $with_question_answer_info, $format_words = null,
                                                $description_length = self::DEFAULT_DESCRIPTION_LENGTH)
        {
            $this->ranked ??= $pages;
            return parent::getSummariesFromOffsets($pages, $queue_servers, $raw, $groups_with_docs,
                $with_question_answer_info, $format_words, $description_length);
        }

        /** A first page of ten for $query over the bundle named $index_name, as a fresh request
         * asks it (no cache): [results, structs, ranked pages], or a Throwable Yioop threw. */
        public static function search(string $index_name, string $query): array|\Throwable
        {
            L\IndexManager::clearCache();
            ob_start();
            try {
                $model = new self(C\DB_NAME, false);
                $model->index_name = $index_name;
                $results = $model->getPhrasePageResults($query, 0, 10, true, null, false, 0);
            } catch (\Throwable $e) {
                return $e;
            } finally {
                ob_end_clean();
            }
            return [$results, $model->structs, $model->ranked ?? []];
        }
    }
}
