#ifndef FAKE_MC_XS_H
#define FAKE_MC_XS_H
/* The fake xsID_ keys (xsmc.h): one number each. */
enum {
	xsID_address = 1, xsID_from, xsID_nodelay, xsID_onError, xsID_onReadable, xsID_onWritable, xsID_port,
	xsID_timeToLive,
};
/* xsl declares the host functions and destructors of the build in mc.xs.h. */
void xs_tcp_destructor(void *data);
void xs_listener_destructor_(void *data);
void xs_udp_destructor(void *data);
#endif
