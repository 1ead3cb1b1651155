"""The network-and-training area: controller, worker (the child process's GUI side), panels."""
