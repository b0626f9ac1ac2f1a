#ifndef PHP_GPUPOST_H
#define PHP_GPUPOST_H

extern zend_module_entry gpupost_module_entry;
#define phpext_gpupost_ptr &gpupost_module_entry

#define PHP_GPUPOST_VERSION "0.1.0"

ZEND_BEGIN_MODULE_GLOBALS(gpupost)
	char *device;
	char *multi_device;
	zend_long min_device_values;
	zend_long max_result_bytes;
	zend_long max_cached_bytes;
	zend_long max_resident_bytes;
	char *server;
	zend_long server_timeout;
ZEND_END_MODULE_GLOBALS(gpupost)

ZEND_EXTERN_MODULE_GLOBALS(gpupost)
#define GPUPOST_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(gpupost, v)

#if defined(ZTS) && defined(COMPILE_DL_GPUPOST)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

#endif
