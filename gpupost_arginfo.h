/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 3a325faff06925751e5f01d8e2e600ecb5c77ddc */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_gpu_decode_postings, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, blob, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, format, IS_LONG, 0, "GPUPOST_MOD9")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, mode, IS_LONG, 0, "GPUPOST_VALUES")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_gpu_decode_postings_batch, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, blobs, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, format, IS_LONG, 0, "GPUPOST_MOD9")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, mode, IS_LONG, 0, "GPUPOST_VALUES")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_gpu_encode_postings, 0, 1, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, data, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, format, IS_LONG, 0, "GPUPOST_MOD9")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, mode, IS_LONG, 0, "GPUPOST_VALUES")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_gpu_prefix_sum, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, values, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, inclusive, _IS_BOOL, 0, "true")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_gpu_tokenize, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, text, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, tokenizer, IS_STRING, 0, "\"unicode61\"")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_gpu_wah_query, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, blobs, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, op, IS_LONG, 0, "GPUPOST_OR")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_gpu_wah_decompress, 0, 1, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, blob, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_gpu_info, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_gpu_postings_slice, 0, 3, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, postings, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, offset, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, last_offset, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, limit, IS_LONG, 0, "200")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, mode, IS_LONG, 0, "GPUPOST_POSTINGS")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_gpu_postings_slice_batch, 0, 2, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, postings, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, requests, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, mode, IS_LONG, 0, "GPUPOST_POSTINGS")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_gpu_postings_seek, 0, 4, MAY_BE_ARRAY|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, postings, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, offset, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, last_offset, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, doc, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_gpu_yioop_snippet, 0, 3, IS_STRING, 1)
	ZEND_ARG_TYPE_INFO(0, text, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, words, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, length, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_GpuPost_Index___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, lists, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, format, IS_LONG, 0, "GPUPOST_MOD9")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_GpuPost_Index_open, 0, 1, GpuPost\\Index, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_GpuPost_Index_fromDocuments, 0, 1, GpuPost\\Index, 0)
	ZEND_ARG_TYPE_INFO(0, docs, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

#define arginfo_class_GpuPost_Index_openYioopShard arginfo_class_GpuPost_Index_open

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_GpuPost_Index_openYioopBundle, 0, 1, GpuPost\\Index, 0)
	ZEND_ARG_TYPE_INFO(0, dir, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_GpuPost_Index_save, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_GpuPost_Index_search, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_MASK(0, query, MAY_BE_ARRAY|MAY_BE_STRING, NULL)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_GpuPost_Index_searchBatch, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, queries, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_GpuPost_Index_count, 0, 0, IS_LONG, 0)
	ZEND_ARG_TYPE_MASK(0, query, MAY_BE_ARRAY|MAY_BE_STRING, "[]")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

#define arginfo_class_GpuPost_Index_info arginfo_gpu_info

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_GpuPost_Index_attributes, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, docs, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_GpuPost_Index_yioopSummaries arginfo_class_GpuPost_Index_attributes

#define arginfo_class_GpuPost_Index_yioopDocs arginfo_class_GpuPost_Index_attributes

#define arginfo_class_GpuPost_Index_yioopGenerations arginfo_gpu_info

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_GpuPost_Index_yioopSearch, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, wordStruct, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()


ZEND_FUNCTION(gpu_decode_postings);
ZEND_FUNCTION(gpu_decode_postings_batch);
ZEND_FUNCTION(gpu_encode_postings);
ZEND_FUNCTION(gpu_prefix_sum);
ZEND_FUNCTION(gpu_tokenize);
ZEND_FUNCTION(gpu_wah_query);
ZEND_FUNCTION(gpu_wah_decompress);
ZEND_FUNCTION(gpu_info);
ZEND_FUNCTION(gpu_postings_slice);
ZEND_FUNCTION(gpu_postings_slice_batch);
ZEND_FUNCTION(gpu_postings_seek);
ZEND_FUNCTION(gpu_yioop_snippet);
ZEND_METHOD(GpuPost_Index, __construct);
ZEND_METHOD(GpuPost_Index, open);
ZEND_METHOD(GpuPost_Index, fromDocuments);
ZEND_METHOD(GpuPost_Index, openYioopShard);
ZEND_METHOD(GpuPost_Index, openYioopBundle);
ZEND_METHOD(GpuPost_Index, save);
ZEND_METHOD(GpuPost_Index, search);
ZEND_METHOD(GpuPost_Index, searchBatch);
ZEND_METHOD(GpuPost_Index, count);
ZEND_METHOD(GpuPost_Index, info);
ZEND_METHOD(GpuPost_Index, attributes);
ZEND_METHOD(GpuPost_Index, yioopSummaries);
ZEND_METHOD(GpuPost_Index, yioopDocs);
ZEND_METHOD(GpuPost_Index, yioopGenerations);
ZEND_METHOD(GpuPost_Index, yioopSearch);


static const zend_function_entry ext_functions[] = {
	ZEND_FE(gpu_decode_postings, arginfo_gpu_decode_postings)
	ZEND_FE(gpu_decode_postings_batch, arginfo_gpu_decode_postings_batch)
	ZEND_FE(gpu_encode_postings, arginfo_gpu_encode_postings)
	ZEND_FE(gpu_prefix_sum, arginfo_gpu_prefix_sum)
	ZEND_FE(gpu_tokenize, arginfo_gpu_tokenize)
	ZEND_FE(gpu_wah_query, arginfo_gpu_wah_query)
	ZEND_FE(gpu_wah_decompress, arginfo_gpu_wah_decompress)
	ZEND_FE(gpu_info, arginfo_gpu_info)
	ZEND_FE(gpu_postings_slice, arginfo_gpu_postings_slice)
	ZEND_FE(gpu_postings_slice_batch, arginfo_gpu_postings_slice_batch)
	ZEND_FE(gpu_postings_seek, arginfo_gpu_postings_seek)
	ZEND_FE(gpu_yioop_snippet, arginfo_gpu_yioop_snippet)
	ZEND_FE_END
};


static const zend_function_entry class_GpuPost_Exception_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_GpuPost_Index_methods[] = {
	ZEND_ME(GpuPost_Index, __construct, arginfo_class_GpuPost_Index___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(GpuPost_Index, open, arginfo_class_GpuPost_Index_open, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(GpuPost_Index, fromDocuments, arginfo_class_GpuPost_Index_fromDocuments, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(GpuPost_Index, openYioopShard, arginfo_class_GpuPost_Index_openYioopShard, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(GpuPost_Index, openYioopBundle, arginfo_class_GpuPost_Index_openYioopBundle, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(GpuPost_Index, save, arginfo_class_GpuPost_Index_save, ZEND_ACC_PUBLIC)
	ZEND_ME(GpuPost_Index, search, arginfo_class_GpuPost_Index_search, ZEND_ACC_PUBLIC)
	ZEND_ME(GpuPost_Index, searchBatch, arginfo_class_GpuPost_Index_searchBatch, ZEND_ACC_PUBLIC)
	ZEND_ME(GpuPost_Index, count, arginfo_class_GpuPost_Index_count, ZEND_ACC_PUBLIC)
	ZEND_ME(GpuPost_Index, info, arginfo_class_GpuPost_Index_info, ZEND_ACC_PUBLIC)
	ZEND_ME(GpuPost_Index, attributes, arginfo_class_GpuPost_Index_attributes, ZEND_ACC_PUBLIC)
	ZEND_ME(GpuPost_Index, yioopSummaries, arginfo_class_GpuPost_Index_yioopSummaries, ZEND_ACC_PUBLIC)
	ZEND_ME(GpuPost_Index, yioopDocs, arginfo_class_GpuPost_Index_yioopDocs, ZEND_ACC_PUBLIC)
	ZEND_ME(GpuPost_Index, yioopGenerations, arginfo_class_GpuPost_Index_yioopGenerations, ZEND_ACC_PUBLIC)
	ZEND_ME(GpuPost_Index, yioopSearch, arginfo_class_GpuPost_Index_yioopSearch, ZEND_ACC_PUBLIC)
	ZEND_FE_END
};

static void register_gpupost_symbols(int module_number)
{
	REGISTER_LONG_CONSTANT("GPUPOST_MOD9", GP_FORMAT_MOD9, CONST_PERSISTENT);
	REGISTER_LONG_CONSTANT("GPUPOST_S9", GP_FORMAT_S9, CONST_PERSISTENT);
	REGISTER_LONG_CONSTANT("GPUPOST_QS", GP_FORMAT_QS, CONST_PERSISTENT);
	REGISTER_LONG_CONSTANT("GPUPOST_WAH", GP_FORMAT_WAH, CONST_PERSISTENT);
	REGISTER_LONG_CONSTANT("GPUPOST_VBYTE", GP_FORMAT_VBYTE, CONST_PERSISTENT);
	REGISTER_LONG_CONSTANT("GPUPOST_GROUP_VARINT", GP_FORMAT_GROUP_VARINT, CONST_PERSISTENT);
	REGISTER_LONG_CONSTANT("GPUPOST_VALUES", GP_MODE_VALUES, CONST_PERSISTENT);
	REGISTER_LONG_CONSTANT("GPUPOST_DOCS", GP_MODE_DOCS, CONST_PERSISTENT);
	REGISTER_LONG_CONSTANT("GPUPOST_POSTINGS", GP_MODE_POSTINGS, CONST_PERSISTENT);
	REGISTER_LONG_CONSTANT("GPUPOST_AND", GP_OP_AND, CONST_PERSISTENT);
	REGISTER_LONG_CONSTANT("GPUPOST_OR", GP_OP_OR, CONST_PERSISTENT);
	REGISTER_LONG_CONSTANT("GPUPOST_PHRASE", GP_OP_PHRASE, CONST_PERSISTENT);
}

static zend_class_entry *register_class_GpuPost_Exception(zend_class_entry *class_entry_RuntimeException)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "GpuPost", "Exception", class_GpuPost_Exception_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RuntimeException);

	return class_entry;
}

static zend_class_entry *register_class_GpuPost_Index(zend_class_entry *class_entry_Countable)
{
	zend_class_entry ce, *class_entry;

	INIT_NS_CLASS_ENTRY(ce, "GpuPost", "Index", class_GpuPost_Index_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 1, class_entry_Countable);

	return class_entry;
}
