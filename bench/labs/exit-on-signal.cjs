// Preloaded (`node -r`) into the API and workers when the bench profiles them (--profile): V8
// writes a --cpu-prof profile only when the process exits by itself, and NestJS's shutdown hooks
// end the process by re-raising SIGTERM. The bench sends SIGUSR2 instead, and this exits.
process.on('SIGUSR2', () => process.exit(0));
