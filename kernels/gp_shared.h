/* What the host (C) and the device (OpenCL C) both read: table layouts, tile constants and the
 * error word. Only #defines, valid in both languages: the .so embeds it ahead of the kernels
 * (Makefile.frag) and the launchers include it. Change a value here and both sides follow. */
#ifndef GP_SHARED_H
#define GP_SHARED_H

/* Elements a work-item scans in the scans' tiles (kernels/scan.cl). */
#define GP_SCAN_ITEMS 8

/* A local array of a tile's n elements padded by one element in 32, so that items reading with
 * a stride of 32 fall on different banks: element t sits at GP_SKEW(t). */
#define GP_SKEW(t) ((t) + ((t) >> 5))

/* Entries of the selector layout tables the tiled passes keep in local memory (uint2 each):
 * MOD9's six selector bits, S9's four. */
#define GP_MOD9_LAYOUTS 64
#define GP_S9_LAYOUTS 16

/* The error word of a launch: the first input word a kernel found malformed (atomic_min), or
 * GP_ERR_NONE. */
#define GP_ERR_NONE 0xFFFFFFFFu

/* The per-blob table of a batch (S9, QS, WAH), GP_BT_STRIDE uints a blob: the fields every
 * format fills, then each format's parameters under names of their own. */
#define GP_BT_STRIDE 8
#define GP_BT_BASE 0          /* first payload word of the blob in the input (32-bit units) */
#define GP_BT_VALUES 1        /* where its output starts */
#define GP_BT_N 2             /* its output count (S9, QS: values; WAH: bitmap words) */
#define GP_BT_ITEMS 6         /* input words its work-items cover (S9 payload, QS upper, WAH words) */
#define GP_BT_S9_DELTA 3      /* S9: the delta rule */
#define GP_BT_QS_L 3          /* QS: lower bits a value */
#define GP_BT_QS_LAST 4       /* QS: the last value */
#define GP_BT_QS_LOWER 5      /* QS: lower words (the upper array follows them) */
#define GP_BT_WAH_W 3         /* WAH: word bits, 32 or 64 */
#define GP_BT_WAH_NBITS 4     /* WAH: rows (the device path takes nbits < 2^32) */
#define GP_BT_WAH_GROUPS 5    /* WAH: ceil(nbits / (w - 1)) */
#define GP_BT_BYTE_DELTA 3    /* VBYTE, GROUP_VARINT: the delta rule (GP_BT_BASE: the payload's 16-byte unit) */
#define GP_BT_BYTES 4         /* VBYTE, GROUP_VARINT: payload bytes */

/* VBYTE: the payload bytes a work-item of its tiled passes takes (kernels/vbyte.cl). */
#define GP_VB_ITEM 16

/* VBYTE: the counters of a tile (its values, then their sum in four 8-bit limbs, so that a
 * block's sums fit 32 bits). */
#define GP_BYTE_COUNTERS 5

/* GROUP_VARINT: the places where the chain of groups may enter a stretch of bytes (its first
 * group begins 0 to 16 bytes into it), each item's map in local memory; the payload bytes a
 * work-item takes and the values it stages (kernels/gvarint.cl): larger items make fewer tiles,
 * each of which looks back, and these fit the 48 KiB of local memory a work-group gets on
 * NVIDIA's OpenCL (the sizes compared: docs/BENCHMARKS.md). */
#define GP_GV_ENTRIES 17
#define GP_GV_ITEM 32
#define GP_GV_STAGE_ITEMS 8

#endif
