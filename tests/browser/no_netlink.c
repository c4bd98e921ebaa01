/* Loaded into Chromium by the browser tests (LD_PRELOAD; tests/browser/netlink.py).
 *
 * Chromium watches the machine's network interfaces through a NETLINK_ROUTE socket
 * and, when one appears or goes (the Docker tests' containers each add and remove a
 * pair of virtual interfaces), drops every request in flight with
 * net::ERR_NETWORK_CHANGED.  Refusing it that one kind of socket makes Chromium take
 * its path for a machine it cannot watch: it assumes it is always online and never
 * drops a request for a change it did not see.  Every other socket is the libc's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/netlink.h>
#include <stddef.h>
#include <sys/socket.h>

typedef int (*socket_fn)(int, int, int);

int socket(int domain, int type, int protocol) {
    static socket_fn libc_socket;
    if (libc_socket == NULL)
        libc_socket = (socket_fn)dlsym(RTLD_NEXT, "socket");
    if (domain == AF_NETLINK && protocol == NETLINK_ROUTE) {
        errno = EAFNOSUPPORT;
        return -1;
    }
    return libc_socket(domain, type, protocol);
}
