// Appended to the pthreads engine's loader (link-engine.sh --post-js): the worker calls it when
// the engine is dropped, so that its pthread Workers end with it.
Module['stopThreads'] = () => PThread.terminateAllThreads();
