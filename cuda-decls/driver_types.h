//===- cuda-decls/driver_types.h - CUDA runtime types -----------*- C++ -*-===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// hpp-rewrite's parse-only declaration of CUDA's <driver_types.h>: the
/// types of the runtime API (errors, copy kinds, handles, device properties
/// and attributes, function attributes, memory locations, launch
/// configurations) and their flag macros. Enumerator values are CUDA's.
/// Not for compiling.
///
/// The device properties and attributes are in __hpp_cuda_device_types.h.
///
//===----------------------------------------------------------------------===//

#ifndef __HPP_CUDA_DRIVER_TYPES_H
#define __HPP_CUDA_DRIVER_TYPES_H

/// CUDA's include guard, which code tests to see what is included.
#define __DRIVER_TYPES_H__

#include "vector_types.h"

#include "__hpp_cuda_device_types.h"

/// The status every runtime call returns; the common enumerators of CUDA
/// 12 and 13, with CUDA's values.
// clang-format off
enum cudaError {
  cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3, cudaErrorCudartUnloading = 4,
  cudaErrorProfilerDisabled = 5, cudaErrorProfilerNotInitialized = 6,
  cudaErrorProfilerAlreadyStarted = 7, cudaErrorProfilerAlreadyStopped = 8,
  cudaErrorInvalidConfiguration = 9, cudaErrorInvalidPitchValue = 12,
  cudaErrorInvalidSymbol = 13, cudaErrorInvalidHostPointer = 16,
  cudaErrorInvalidDevicePointer = 17, cudaErrorInvalidTexture = 18,
  cudaErrorInvalidTextureBinding = 19, cudaErrorInvalidChannelDescriptor = 20,
  cudaErrorInvalidMemcpyDirection = 21, cudaErrorAddressOfConstant = 22,
  cudaErrorTextureFetchFailed = 23, cudaErrorTextureNotBound = 24,
  cudaErrorSynchronizationError = 25, cudaErrorInvalidFilterSetting = 26,
  cudaErrorInvalidNormSetting = 27, cudaErrorMixedDeviceExecution = 28,
  cudaErrorNotYetImplemented = 31, cudaErrorMemoryValueTooLarge = 32,
  cudaErrorStubLibrary = 34, cudaErrorInsufficientDriver = 35,
  cudaErrorCallRequiresNewerDriver = 36, cudaErrorInvalidSurface = 37,
  cudaErrorDuplicateVariableName = 43, cudaErrorDuplicateTextureName = 44,
  cudaErrorDuplicateSurfaceName = 45, cudaErrorDevicesUnavailable = 46,
  cudaErrorIncompatibleDriverContext = 49, cudaErrorMissingConfiguration = 52,
  cudaErrorPriorLaunchFailure = 53, cudaErrorLaunchMaxDepthExceeded = 65,
  cudaErrorLaunchFileScopedTex = 66, cudaErrorLaunchFileScopedSurf = 67,
  cudaErrorSyncDepthExceeded = 68, cudaErrorLaunchPendingCountExceeded = 69,
  cudaErrorInvalidDeviceFunction = 98, cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101, cudaErrorDeviceNotLicensed = 102,
  cudaErrorSoftwareValidityNotEstablished = 103, cudaErrorStartupFailure = 127,
  cudaErrorInvalidKernelImage = 200, cudaErrorDeviceUninitialized = 201,
  cudaErrorMapBufferObjectFailed = 205, cudaErrorUnmapBufferObjectFailed = 206,
  cudaErrorArrayIsMapped = 207, cudaErrorAlreadyMapped = 208,
  cudaErrorNoKernelImageForDevice = 209, cudaErrorAlreadyAcquired = 210,
  cudaErrorNotMapped = 211, cudaErrorNotMappedAsArray = 212,
  cudaErrorNotMappedAsPointer = 213, cudaErrorECCUncorrectable = 214,
  cudaErrorUnsupportedLimit = 215, cudaErrorDeviceAlreadyInUse = 216,
  cudaErrorPeerAccessUnsupported = 217, cudaErrorInvalidPtx = 218,
  cudaErrorInvalidGraphicsContext = 219, cudaErrorNvlinkUncorrectable = 220,
  cudaErrorJitCompilerNotFound = 221, cudaErrorUnsupportedPtxVersion = 222,
  cudaErrorJitCompilationDisabled = 223, cudaErrorUnsupportedExecAffinity = 224,
  cudaErrorUnsupportedDevSideSync = 225, cudaErrorContained = 226,
  cudaErrorInvalidSource = 300, cudaErrorFileNotFound = 301,
  cudaErrorSharedObjectSymbolNotFound = 302,
  cudaErrorSharedObjectInitFailed = 303, cudaErrorOperatingSystem = 304,
  cudaErrorInvalidResourceHandle = 400, cudaErrorIllegalState = 401,
  cudaErrorLossyQuery = 402, cudaErrorSymbolNotFound = 500,
  cudaErrorNotReady = 600, cudaErrorIllegalAddress = 700,
  cudaErrorLaunchOutOfResources = 701, cudaErrorLaunchTimeout = 702,
  cudaErrorLaunchIncompatibleTexturing = 703,
  cudaErrorPeerAccessAlreadyEnabled = 704, cudaErrorPeerAccessNotEnabled = 705,
  cudaErrorSetOnActiveProcess = 708, cudaErrorContextIsDestroyed = 709,
  cudaErrorAssert = 710, cudaErrorTooManyPeers = 711,
  cudaErrorHostMemoryAlreadyRegistered = 712,
  cudaErrorHostMemoryNotRegistered = 713, cudaErrorHardwareStackError = 714,
  cudaErrorIllegalInstruction = 715, cudaErrorMisalignedAddress = 716,
  cudaErrorInvalidAddressSpace = 717, cudaErrorInvalidPc = 718,
  cudaErrorLaunchFailure = 719, cudaErrorCooperativeLaunchTooLarge = 720,
  cudaErrorTensorMemoryLeak = 721, cudaErrorNotPermitted = 800,
  cudaErrorNotSupported = 801, cudaErrorSystemNotReady = 802,
  cudaErrorSystemDriverMismatch = 803,
  cudaErrorCompatNotSupportedOnDevice = 804,
  cudaErrorMpsConnectionFailed = 805, cudaErrorMpsRpcFailure = 806,
  cudaErrorMpsServerNotReady = 807, cudaErrorMpsMaxClientsReached = 808,
  cudaErrorMpsMaxConnectionsReached = 809, cudaErrorMpsClientTerminated = 810,
  cudaErrorCdpNotSupported = 811, cudaErrorCdpVersionMismatch = 812,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorStreamCaptureInvalidated = 901, cudaErrorStreamCaptureMerge = 902,
  cudaErrorStreamCaptureUnmatched = 903, cudaErrorStreamCaptureUnjoined = 904,
  cudaErrorStreamCaptureIsolation = 905, cudaErrorStreamCaptureImplicit = 906,
  cudaErrorCapturedEvent = 907, cudaErrorStreamCaptureWrongThread = 908,
  cudaErrorTimeout = 909, cudaErrorGraphExecUpdateFailure = 910,
  cudaErrorExternalDevice = 911, cudaErrorInvalidClusterSize = 912,
  cudaErrorFunctionNotLoaded = 913, cudaErrorInvalidResourceType = 914,
  cudaErrorInvalidResourceConfiguration = 915, cudaErrorUnknown = 999
};
// clang-format on
typedef enum cudaError cudaError_t;

/// The direction of a copy.
enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

/// \name Opaque handles
/// Pointers to incomplete structs, as in CUDA: `cudaStream_t s = 0;`,
/// `nullptr` and NULL are streams.
/// @{
struct CUstream_st;
struct CUevent_st;
struct CUgraph_st;
struct CUgraphNode_st;
struct CUgraphExec_st;
struct CUfunc_st;
struct CUkern_st;
struct CUmemPoolHandle_st;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
typedef struct CUgraph_st *cudaGraph_t;
typedef struct CUgraphNode_st *cudaGraphNode_t;
typedef struct CUgraphExec_st *cudaGraphExec_t;
typedef struct CUfunc_st *cudaFunction_t;
typedef struct CUkern_st *cudaKernel_t;
typedef struct CUmemPoolHandle_st *cudaMemPool_t;
typedef void(CUDART_CB *cudaStreamCallback_t)(cudaStream_t stream,
                                              cudaError_t status,
                                              void *userData);
typedef void(CUDART_CB *cudaHostFn_t)(void *userData);
/// @}

/// \name Flags of allocations, streams, events and devices
/// @{
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
#define cudaHostRegisterDefault 0x00
#define cudaHostRegisterPortable 0x01
#define cudaHostRegisterMapped 0x02
#define cudaHostRegisterIoMemory 0x04
#define cudaHostRegisterReadOnly 0x08
#define cudaPeerAccessDefault 0x00
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02
#define cudaEventInterprocess 0x04
#define cudaEventRecordDefault 0x00
#define cudaEventRecordExternal 0x01
#define cudaEventWaitDefault 0x00
#define cudaEventWaitExternal 0x01
#define cudaDeviceScheduleAuto 0x00
#define cudaDeviceScheduleSpin 0x01
#define cudaDeviceScheduleYield 0x02
#define cudaDeviceScheduleBlockingSync 0x04
#define cudaDeviceBlockingSync 0x04
#define cudaDeviceScheduleMask 0x07
#define cudaDeviceMapHost 0x08
#define cudaDeviceLmemResizeToMax 0x10
#define cudaDeviceSyncMemops 0x80
#define cudaDeviceMask 0xff
#define cudaMemAttachGlobal 0x01
#define cudaMemAttachHost 0x02
#define cudaMemAttachSingle 0x04
#define cudaOccupancyDefault 0x00
#define cudaOccupancyDisableCachingOverride 0x01
#define cudaCpuDeviceId ((int)-1)
#define cudaInvalidDeviceId ((int)-2)
/// @}

/// \name Per-kernel attributes and cache preferences
/// @{
struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  size_t constSizeBytes;
  size_t localSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
  int ptxVersion;
  int binaryVersion;
  int cacheModeCA;
  int maxDynamicSharedSizeBytes;
  int preferredShmemCarveout;
  int clusterDimMustBeSet;
  int requiredClusterWidth;
  int requiredClusterHeight;
  int requiredClusterDepth;
  int clusterSchedulingPolicyPreference;
  int nonPortableClusterSizeAllowed;
  int reserved[16];
};
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
  cudaFuncAttributeClusterDimMustBeSet = 10,
  cudaFuncAttributeRequiredClusterWidth = 11,
  cudaFuncAttributeRequiredClusterHeight = 12,
  cudaFuncAttributeRequiredClusterDepth = 13,
  cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
  cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
  cudaFuncAttributeMax
};
enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};
enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};
enum cudaSharedCarveout {
  cudaSharedmemCarveoutDefault = -1,
  cudaSharedmemCarveoutMaxShared = 100,
  cudaSharedmemCarveoutMaxL1 = 0
};
enum cudaLimit {
  cudaLimitStackSize = 0x00,
  cudaLimitPrintfFifoSize = 0x01,
  cudaLimitMallocHeapSize = 0x02,
  cudaLimitDevRuntimeSyncDepth = 0x03,
  cudaLimitDevRuntimePendingLaunchCount = 0x04,
  cudaLimitMaxL2FetchGranularity = 0x05,
  cudaLimitPersistingL2CacheSize = 0x06
};
enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3
};
/// @}

/// \name Memory: locations, advice, pointer attributes, pitched extents
/// cudaMemLocation is what CUDA 13's cudaMemPrefetchAsync and cudaMemAdvise
/// take where CUDA 12's took a device number; both forms are declared.
/// @{
enum cudaMemLocationType {
  cudaMemLocationTypeInvalid = 0,
  cudaMemLocationTypeNone = 0,
  cudaMemLocationTypeDevice = 1,
  cudaMemLocationTypeHost = 2,
  cudaMemLocationTypeHostNuma = 3,
  cudaMemLocationTypeHostNumaCurrent = 4
};
struct cudaMemLocation {
  enum cudaMemLocationType type;
  int id;
};
enum cudaMemoryAdvise {
  cudaMemAdviseSetReadMostly = 1,
  cudaMemAdviseUnsetReadMostly = 2,
  cudaMemAdviseSetPreferredLocation = 3,
  cudaMemAdviseUnsetPreferredLocation = 4,
  cudaMemAdviseSetAccessedBy = 5,
  cudaMemAdviseUnsetAccessedBy = 6
};
enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3
};
struct cudaPointerAttributes {
  enum cudaMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
  long reserved[8];
};
struct cudaExtent {
  size_t width;
  size_t height;
  size_t depth;
};
struct cudaPitchedPtr {
  void *ptr;
  size_t pitch;
  size_t xsize;
  size_t ysize;
};
/// @}

/// \name Stream capture into graphs
/// @{
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2
};
/// @}

/// \name Launch descriptions
/// cudaLaunchParams (CUDA 12), and the configuration of cudaLaunchKernelEx
/// with the attributes that kernels commonly set: cooperative launch,
/// cluster dimensions, priority, programmatic serialization.
/// @{
struct cudaLaunchParams {
  void *func;
  dim3 gridDim;
  dim3 blockDim;
  void **args;
  size_t sharedMem;
  cudaStream_t stream;
};
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
  cudaLaunchAttributeMemSyncDomainMap = 9,
  cudaLaunchAttributeMemSyncDomain = 10,
  cudaLaunchAttributePreferredClusterDimension = 11,
  cudaLaunchAttributeLaunchCompletionEvent = 12
};
union cudaLaunchAttributeValue {
  char pad[64];
  int cooperative;
  struct {
    unsigned int x, y, z;
  } clusterDim;
  int programmaticStreamSerializationAllowed;
  int priority;
  struct {
    unsigned int x, y, z;
  } preferredClusterDim;
};
struct cudaLaunchAttribute_st {
  enum cudaLaunchAttributeID id;
  char pad[8 - sizeof(enum cudaLaunchAttributeID)];
  union cudaLaunchAttributeValue val;
};
typedef struct cudaLaunchAttribute_st cudaLaunchAttribute;
struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
};
typedef struct cudaLaunchConfig_st cudaLaunchConfig_t;
/// @}

/// The rounding modes of CUDA's device_types.h.
enum cudaRoundMode {
  cudaRoundNearest,
  cudaRoundZero,
  cudaRoundPosInf,
  cudaRoundMinInf
};

#endif // __HPP_CUDA_DRIVER_TYPES_H
