/*
 * The Moddable SDK's lwIP TCP socket and listener (modules/io/socket/lwip/tcp.c), compiled with the
 * project's guards against pcbs lwIP has freed or never made. The including file defines, first,
 * lwipRun(fn, ctx): fn(ctx) run where lwIP may be called (the Pico W: under the cyw43 lwIP lock; the
 * ESP32: in lwIP's tcpip thread), and lwipLock() and lwipUnlock() around a callback setter (the Pico W:
 * that lock; the ESP32: nothing, as the SDK there).
 *
 * - A pcb lwIP freed is never closed again. On a peer's FIN the SDK drops the socket's error callback
 *   but keeps the pcb (tcp.c:549-555, removeTCPCallbacks at :262-271), and a socket accepted but not
 *   yet read never has one (:833-865); a RST that follows makes lwIP free the pcb without a word
 *   (lwIP tcp_in.c:442-449), and the close the application makes later freed it again: two later
 *   connections then share one pcb. Here every pcb keeps an error callback until the socket closes it,
 *   and the close reads the socket's pcb where lwIP runs, so a pcb freed a moment before is not closed.
 * - A NULL pcb is never queued. lwIP calls the accept callback with NULL when it cannot make a pcb
 *   (tcp_in.c:667; esp-lwip :680); the SDK queued it (:843-847) and remoteAddress read through it
 *   (:415-421). Here nothing is queued for it, and remoteAddress and remotePort of a socket whose pcb
 *   is gone are undefined.
 * - A listener read with nothing alive to give closes the socket it was handed (the SDK's read keeps
 *   that socket remembered for ever, :771-772).
 * - Bytes that came before the accept reach the socket at the accept. The SDK's pending socket refuses
 *   them (listenerReceive answers ERR_MEM, :828-831), and lwIP offers refused data again only at its
 *   next fast timer, every 250 ms (tcp.c tcp_fasttmr), or with the peer's next segment: a client that
 *   sends its request as soon as it is connected, before the application has read the listener, waited
 *   up to 250 ms for its answer.
 * - A write lwIP's heap cannot take now throws "would block", as a write beyond the writable count does,
 *   and the socket stays whole. The SDK traced "tcp write failed" and failed the socket (:402-405): on
 *   the Pico W, whose lwIP heap is 4,000 bytes (MEM_SIZE), a full segment meets no hole of its size
 *   while the small segments of other connections (a SYN-ACK, a FIN) sit between those in flight, and
 *   the answer was cut. The application writes those bytes again once another socket's are
 *   acknowledged (src/device/send-turns.ts).
 * - A socket adopted with new TCP({from}) loses nothing to the moment between the records. The SDK
 *   copies the from-socket's pcb and bytes, frees its record (doClose, tcp.c:151-154) and only then
 *   points the pcb's callbacks at the new one (:217-219): lwIP, running meanwhile (an interrupt on the
 *   Pico W, the tcpip task on the ESP32's other core), put a segment into the freed record (the
 *   request lost: a client waits for an answer that never comes) or, at a RST, left the new socket a
 *   freed pcb that the SDK then wrote its callbacks into. Here, before the SDK reads anything, the pcb's
 *   callbacks are made holding ones where lwIP runs (data refused and kept by lwIP, a FIN or a RST
 *   noted); the SDK's own callback stores and its Nagle switch for that pcb are noted, and applied
 *   where lwIP runs once the new record exists, with what came in the meantime handed to it.
 * - A pcb is read where lwIP runs, never before. The SDK passes tcp->skt, read in the XS task, to its
 *   write (tcp.c:402), its tcp_recved (:362) and its tcp_output (:492); the Pico W's lock is taken
 *   after that argument is worked out, and the ESP32 queues it for lwIP's task. lwIP frees a pcb on its
 *   own when it gives up retransmitting or keeping alive (lwIP tcp.c:1383-1413, tcp_slowtmr: the pcb
 *   freed, then its error callback): the write then queued segments on a freed pcb (never sent, never
 *   freed: lwIP's heap drains), and tcp_recved wrote into freed memory. Here each reads the socket's
 *   pcb where lwIP runs, where the error callback has cleared it if lwIP freed it.
 * - The SDK's drops of a pcb's callbacks (removeTCPCallbacks, :262-271) are not made: they come from
 *   lwIP's error callback (:538), when lwIP has freed the pcb, and from the XS task (doClose), outside
 *   lwIP, where lwIP may have freed it a moment before. The close drops them where lwIP runs
 *   (guardedCloseIn); after a peer's FIN (:549-550) the pcb keeps them until then, and the socket
 *   reports no more writable events all the same (the SDK clears its trigger).
 * - The read takes a spent buffer off the socket's list where lwIP runs: lwIP's receive appends to the
 *   last buffer's `next` (:575-583) while the SDK's read, in the XS task, unlinked the first (:361),
 *   and a segment appended to the buffer being unlinked was lost, its pbuf never freed.
 * - close() closes the pcb where lwIP runs before the record can be let go (xs_tcp_close below): lwIP
 *   told a record whose last hold was gone of one more event, and the message for it outlived the record.
 * RAM: nothing more per socket; the listener's pending records are the SDK's.
 */

/* xsid takes the xsID_ names from the text of the compiled file alone: the including .c file names
   every one tcp.c uses. */

err_t tcp_process_refused_data(struct tcp_pcb *pcb);	/* lwIP's lwip/priv/tcp_priv.h */

static void guardedClose(struct tcp_pcb **slot);

static err_t guardedWrite(xsMachine *the, struct tcp_pcb **slot, const void *data, u16_t length, u8_t flags);
static void guardedRecved(struct tcp_pcb **slot, u16_t length);
static void guardedOutput(struct tcp_pcb **slot);
/* lwIP's Nagle switch (lwip/tcp.h: a read-modify-write of pcb->flags, which lwIP changes too), taken
   before the SDK's file sees it as guardedNagle below. */
static void chipNagle(struct tcp_pcb *pcb, u8_t off)
{
	if (off)
		tcp_nagle_disable(pcb);
	else
		tcp_nagle_enable(pcb);
}

/* The chip's callback setters (lwip-locked.h's on the Pico W: under the lock), taken before the SDK's
   file sees them as the guarded ones below. */
static void chipSetArg(struct tcp_pcb *pcb, void *arg) { tcp_arg(pcb, arg); }
static void chipSetRecv(struct tcp_pcb *pcb, tcp_recv_fn fn) { tcp_recv(pcb, fn); }
static void chipSetSent(struct tcp_pcb *pcb, tcp_sent_fn fn) { tcp_sent(pcb, fn); }

static void guardedSetErr(struct tcp_pcb *pcb, tcp_err_fn fn);
static void guardedSetAccept(struct tcp_pcb *pcb, tcp_accept_fn fn);
static void guardedSetArg(struct tcp_pcb *pcb, void *arg);
static void guardedSetRecv(struct tcp_pcb *pcb, tcp_recv_fn fn);
static void guardedSetSent(struct tcp_pcb *pcb, tcp_sent_fn fn);
static void guardedNagle(struct tcp_pcb *pcb, u8_t off);

#undef tcp_close_safe
#undef tcp_write_safe
#undef tcp_recved_safe
#undef tcp_output_safe
#undef tcp_err
#undef tcp_accept
#define tcp_close_safe(pcb) guardedClose(&(pcb))
#define tcp_write_safe(pcb, data, length, flags) guardedWrite(the, &(pcb), data, length, flags)
#define tcp_recved_safe(pcb, length) guardedRecved(&(pcb), length)
#define tcp_output_safe(pcb) guardedOutput(&(pcb))
#define tcp_err(pcb, fn) guardedSetErr(pcb, fn)
#define tcp_accept(pcb, fn) guardedSetAccept(pcb, fn)
#define tcp_arg(pcb, a) guardedSetArg(pcb, a)
#define tcp_recv(pcb, fn) guardedSetRecv(pcb, fn)
#define tcp_sent(pcb, fn) guardedSetSent(pcb, fn)
#undef tcp_nagle_disable
#undef tcp_nagle_enable
#define tcp_nagle_disable(pcb) guardedNagle(pcb, 1)
#define tcp_nagle_enable(pcb) guardedNagle(pcb, 0)
#define xs_tcp_constructor sdk_xs_tcp_constructor
#define xs_tcp_close sdk_xs_tcp_close
#define xs_tcp_read sdk_xs_tcp_read
#define xs_listener_read sdk_xs_listener_read
#define xs_tcp_get_remoteAddress sdk_xs_tcp_get_remoteAddress
#define xs_tcp_get_remotePort sdk_xs_tcp_get_remotePort

/* The SDK's file, found from modules/network/socket/lwip, a directory the build's include path has. */
#include "../../../io/socket/lwip/tcp.c"

#undef tcp_err
#undef tcp_accept
#undef tcp_arg		/* lwIP's own from here: the code below runs where lwIP runs, or says why not */
#undef tcp_recv
#undef tcp_sent
#undef tcp_nagle_disable
#undef tcp_nagle_enable
#undef xs_tcp_constructor
#undef xs_tcp_close
#undef xs_tcp_read
#undef xs_listener_read
#undef xs_tcp_get_remoteAddress
#undef xs_tcp_get_remotePort

/* The pcb being adopted (new TCP({from})), between adoptHoldIn and adoptDoneIn: what lwIP told of it
   meanwhile, and the callbacks the SDK's constructor stored for it. One at a time: the XS task makes
   one socket at a time, and only these two functions, where lwIP runs, set and clear `pcb`. */
static struct {
	struct tcp_pcb *pcb;
	uint8_t finished, gone, nagle;	/* nagle: 0 untouched, 1 off (nodelay), 2 on */
	void *arg;
	tcp_recv_fn recv;
	tcp_sent_fn sent;
	tcp_err_fn err;
} gAdopting;

static err_t adoptingReceive(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	if (p)
		return ERR_MEM;		/* lwIP keeps it as refused data: adoptDoneIn offers it again */
	gAdopting.finished = 1;	/* a FIN is offered once (tcp_in.c:531-545) */
	return ERR_OK;
}

static void adoptingGone(void *arg, err_t err)
{
	gAdopting.gone = 1;		/* lwIP frees the pcb after this call */
}

/* Where lwIP runs, before the SDK reads the from-socket: its pcb's callbacks become the holding ones. */
static void adoptHoldIn(void *ctx)
{
	struct tcp_pcb *pcb = ((TCP)ctx)->skt;
	gAdopting.finished = gAdopting.gone = gAdopting.nagle = 0;
	gAdopting.arg = NULL;
	gAdopting.recv = NULL;
	gAdopting.sent = NULL;
	gAdopting.err = NULL;
	if (!pcb)
		return;
	gAdopting.pcb = pcb;
	tcp_arg(pcb, NULL);
	tcp_recv(pcb, adoptingReceive);
	tcp_sent(pcb, NULL);
	tcp_err(pcb, adoptingGone);
}

/* Where lwIP runs, once the new record exists: the SDK's callbacks applied to a pcb still alive, and
   what came meanwhile handed to it; a pcb lwIP freed meanwhile is the socket's error. */
static void adoptDoneIn(void *ctx)
{
	TCP tcp = ctx;
	struct tcp_pcb *pcb = gAdopting.pcb;
	gAdopting.pcb = NULL;
	if (!pcb || !tcp || (tcp->skt != pcb))
		return;
	if (gAdopting.gone) {
		tcp->skt = NULL;	/* freed by lwIP: tcpError touches no pcb then */
		tcpError(tcp, ERR_RST);
		return;
	}
	tcp_arg(pcb, gAdopting.arg);
	tcp_recv(pcb, gAdopting.recv);
	tcp_sent(pcb, gAdopting.sent);
	tcp_err(pcb, gAdopting.err);
	if (gAdopting.nagle)
		chipNagle(pcb, 1 == gAdopting.nagle);
	if (pcb->refused_data)
		tcp_process_refused_data(pcb);
	else if (gAdopting.finished && gAdopting.recv)
		gAdopting.recv(gAdopting.arg, pcb, NULL, ERR_OK);
}

/* new TCP(options): the SDK's constructor, with the adoption window closed around it. */
void xs_tcp_constructor(xsMachine *the)
{
	TCP from = NULL;
	if ((xsmcArgc > 0) && xsmcHas(xsArg(0), xsID_from)) {
		/* Read through xsResult, not a var (the SDK's constructor makes those), then given back: an
		   object left in a constructor's result is what `new` answers. */
		xsmcGet(xsResult, xsArg(0), xsID_from);
		from = xsmcGetHostDataValidate(xsResult, (void *)&xsTCPHooks);
		xsResult = xsThis;
		if (from->skt)
			lwipRun(adoptHoldIn, from);
		else
			from = NULL;	/* the SDK throws "invalid from" */
	}
	sdk_xs_tcp_constructor(the);	/* where it throws ("no memory"), it has closed the pcb: guardedCloseIn */
	if (from)
		lwipRun(adoptDoneIn, xsmcGetHostData(xsThis));
}

/* The SDK's callback stores: noted while their pcb is being adopted, made at once otherwise. */
void guardedSetArg(struct tcp_pcb *pcb, void *arg)
{
	if (pcb == gAdopting.pcb)
		gAdopting.arg = arg;
	else
		chipSetArg(pcb, arg);
}

/* A NULL callback is the SDK's removeTCPCallbacks: not made (see the top of this file). */
void guardedSetRecv(struct tcp_pcb *pcb, tcp_recv_fn fn)
{
	if (pcb == gAdopting.pcb)
		gAdopting.recv = fn;
	else if (fn)
		chipSetRecv(pcb, fn);
}

void guardedSetSent(struct tcp_pcb *pcb, tcp_sent_fn fn)
{
	if (pcb == gAdopting.pcb)
		gAdopting.sent = fn;
	else if (fn)
		chipSetSent(pcb, fn);
}

void guardedNagle(struct tcp_pcb *pcb, u8_t off)
{
	if (pcb == gAdopting.pcb)
		gAdopting.nagle = off ? 1 : 2;
	else
		chipNagle(pcb, off);
}

/* The close, where lwIP runs: the pcb is read there (an error callback may have just cleared it), its
   callbacks are dropped (they name a record about to be freed), then lwIP's own close. */
static void guardedCloseIn(void *ctx)
{
	struct tcp_pcb **slot = ctx, *pcb = *slot;
	if (!pcb)
		return;
	*slot = NULL;
	if (pcb == gAdopting.pcb)
		gAdopting.pcb = NULL;	/* closed in the middle of its adoption: nothing is applied to it */
	if (LISTEN != pcb->state) {	/* lwIP asserts on these for a listen pcb */
		tcp_recv(pcb, NULL);
		tcp_sent(pcb, NULL);
		tcp_err(pcb, NULL);
	}
	tcp_arg(pcb, NULL);
	if (ERR_OK != tcp_close(pcb))
		tcp_abort(pcb);
}

void guardedClose(struct tcp_pcb **slot)
{
	lwipRun(guardedCloseIn, slot);
}

/* close(): the pcb closed where lwIP runs first, then the SDK's doClose lets the record go. The SDK
   closed the pcb only in the record's destructor, once its last hold was released; the pcb keeping its
   callbacks until that close (see the top of this file), lwIP could tell the record of a segment, a
   FIN or an acknowledgement in between (the ESP32's tcpip task runs whatever is ahead of the close in
   its queue first; the Pico W's interrupt comes before the lock is taken): a new hold and a message
   for a record the destructor then freed, delivered after the free, which destroyed it a second time
   (the ESP32's heap asserted in tlsf_free). Closed first, the pcb tells the record nothing more, and a
   message lwIP posted before holds the record until it is delivered. */
void xs_tcp_close(xsMachine *the)
{
	TCP tcp = xsmcGetHostData(xsThis);
	if (tcp && xsmcGetHostDataValidate(xsThis, (void *)&xsTCPHooks))
		guardedClose(&tcp->skt);
	sdk_xs_tcp_close(the);
}

/* The SDK's write, tcp_recved and tcp_output with the socket's pcb read where lwIP runs: NULL once lwIP
   freed it (tcpError cleared it there). */
struct SlotCall {
	struct tcp_pcb **slot;
	const void *data;
	u16_t length;
	u8_t flags;
	err_t err;
};

static void writeIn(void *ctx)
{
	struct SlotCall *call = ctx;
	struct tcp_pcb *pcb = *call->slot;
	call->err = pcb ? tcp_write(pcb, call->data, call->length, call->flags) : ERR_CLSD;
}

/* The SDK's write (tcp.c:402), where lwIP's heap refusing the segment (ERR_MEM) throws "would block"
   out of xs_tcp_write and leaves the socket whole; any other refusal (ERR_CLSD: lwIP freed the pcb)
   fails the socket as before. The write has returned, and any lock it took is released, before the
   throw. */
err_t guardedWrite(xsMachine *the, struct tcp_pcb **slot, const void *data, u16_t length, u8_t flags)
{
	struct SlotCall call = { .slot = slot, .data = data, .length = length, .flags = flags };
	lwipRun(writeIn, &call);
	if (ERR_MEM == call.err)
		xsUnknownError("would block");
	return call.err;
}

static void recvedIn(void *ctx)
{
	struct SlotCall *call = ctx;
	if (*call->slot)
		tcp_recved(*call->slot, call->length);
}

void guardedRecved(struct tcp_pcb **slot, u16_t length)
{
	struct SlotCall call = { .slot = slot, .length = length };
	lwipRun(recvedIn, &call);
}

static void outputIn(void *ctx)
{
	struct tcp_pcb **slot = ctx;
	if (*slot)
		tcp_output(*slot);
}

void guardedOutput(struct tcp_pcb **slot)
{
	lwipRun(outputIn, slot);
}

/* Where lwIP runs: the socket's first buffer, spent, taken off its list (tcpReceive appends to the
   list there), and lwIP told its bytes were taken; its pbuf and record are freed by the caller. */
static void spentIn(void *ctx)
{
	TCP tcp = ctx;
	TCPBuffer buffer = tcp->buffers;
	tcp->buffers = buffer->next;
	if (tcp->skt)
		tcp_recved(tcp->skt, buffer->pb->tot_len);
}

/* The SDK's read (tcp.c:301-375) with its spent buffers taken off the list where lwIP runs. */
void xs_tcp_read(xsMachine *the)
{
	TCP tcp = xsmcGetHostDataValidate(xsThis, (void *)&xsTCPHooks);
	TCPBuffer buffer;
	int requested;
	uint8_t *out, value;

	if (!tcp->buffers)
		return;

	if (kIOFormatBuffer == tcp->format) {
		int available = 0;
		uint8_t allocate = 1;
		xsUnsignedValue byteLength;

		/* lwIP may append meanwhile: what it appends is read next time */
		for (buffer = tcp->buffers; NULL != buffer; buffer = buffer->next)
			available += buffer->bytes;

		if (0 == xsmcArgc)
			requested = available;
		else if (xsReferenceType == xsmcTypeOf(xsArg(0))) {
			xsResult = xsArg(0);
			xsmcGetBufferWritable(xsResult, (void **)&out, &byteLength);
			requested = (int)byteLength;
			allocate = 0;
			xsmcSetInteger(xsResult, requested);
		}
		else
			requested = xsmcToInteger(xsArg(0));

		if ((requested <= 0) || (requested > available))
			xsUnknownError("invalid");

		if (allocate)
			out = xsmcSetArrayBuffer(xsResult, NULL, requested);
	}
	else {
		requested = 1;
		out = &value;
	}

	while (requested) {
		int use = requested;
		buffer = tcp->buffers;
		struct pbuf *fragment = buffer->fragment;

		if (use > (fragment->len - buffer->fragmentOffset))
			use = fragment->len - buffer->fragmentOffset;

		c_memmove(out, buffer->fragmentOffset + (uint8_t *)fragment->payload, use);

		out += use;
		requested -= use;
		buffer->bytes -= use;
		buffer->fragmentOffset += use;

		if (buffer->fragmentOffset == fragment->len) {
			buffer->fragment = fragment->next;
			buffer->fragmentOffset = 0;
			if (NULL == buffer->fragment) {
				lwipRun(spentIn, tcp);
				pbuf_free_safe(buffer->pb);
				c_free(buffer);
				if (NULL == tcp->buffers) {
					if (tcp->error)
						tcpTrigger(tcp, kTCPError);
					break;
				}
			}
		}
	}

	if (kIOFormatNumber == tcp->format)
		xsmcSetInteger(xsResult, value);
}

/* The SDK drops the error callback after a FIN; it is kept here until guardedCloseIn drops it. */
void guardedSetErr(struct tcp_pcb *pcb, tcp_err_fn fn)
{
	if (pcb == gAdopting.pcb) {
		if (fn)
			gAdopting.err = fn;
		return;
	}
	if (!fn)
		return;
	lwipLock();
	tcp_err(pcb, fn);
	lwipUnlock();
}

/* A pending record, and whether the client's FIN came before the application read it. The SDK's
   code sees only `record` (its listener's destructor frees the whole block). */
typedef struct {
	ListenerPendingRecord record;
	uint8_t finished;
} GuardedPendingRecord;

/* The receive of a pending pcb, in lwIP's input. Data is refused (lwIP keeps it as refused data,
   offered again by pendingTakeIn). A FIN with no data ahead of it is offered once and never again
   (tcp_in.c:531-545): noted here, handed to the socket when it takes the pcb in. */
static err_t pendingReceive(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	if (p)
		return ERR_MEM;
	((GuardedPendingRecord *)arg)->finished = 1;
	return ERR_OK;
}

/* lwIP freed a pending (accepted, not yet read) pcb: its record stays queued, marked dead. */
static void pendingGone(void *arg, err_t err)
{
	((ListenerPending)arg)->skt = NULL;
}

/* listenerAccept (tcp.c:833-865) for a pcb that exists; it runs in lwIP's input. */
static err_t guardedAccept(void *arg, struct tcp_pcb *skt, err_t err)
{
	Listener listener = arg;
	ListenerPending pending, walker;

	if (!skt || (ERR_OK != err))
		return ERR_VAL;	/* lwIP could not make a pcb: nothing to queue (it ignores the answer) */
#ifdef mxDebug
	if (fxInNetworkDebugLoop(listener->the)) {
		/* ERR_ABRT tells lwIP this callback aborted the pcb itself (tcp_in.c:958-965): it does */
		tcp_abort(skt);
		return ERR_ABRT;
	}
#endif
	pending = c_malloc(sizeof(GuardedPendingRecord));
	if (!pending)
		return ERR_MEM;	/* lwIP aborts the connection (tcp_in.c, SYN_RCVD) */
	pending->next = NULL;
	pending->skt = skt;
	((GuardedPendingRecord *)pending)->finished = 0;
	tcp_arg(skt, pending);
	tcp_err(skt, pendingGone);
	tcp_recv(skt, pendingReceive);

	builtinCriticalSectionBegin();
	walker = listener->pending;
	if (NULL == walker)
		listener->pending = pending;
	else {
		while (walker->next)
			walker = walker->next;
		walker->next = pending;
	}
	builtinCriticalSectionEnd();

	if (listener->onReadable)
		listenerTrigger(listener, kListenerReadable);
	return ERR_OK;
}

void guardedSetAccept(struct tcp_pcb *pcb, tcp_accept_fn fn)
{
	lwipLock();
	tcp_accept(pcb, fn ? guardedAccept : NULL);
	lwipUnlock();
}

struct PendingTake {
	Listener listener;
	TCP tcp;
	ListenerPending taken;	/* every record taken off the queue, to free outside lwIP */
};

/* Where lwIP runs: the first pending pcb still alive becomes the socket's; dead records are taken too. */
static void pendingTakeIn(void *ctx)
{
	struct PendingTake *take = ctx;
	ListenerPending pending;

	builtinCriticalSectionBegin();
	while ((pending = take->listener->pending)) {
		take->listener->pending = pending->next;
		pending->next = take->taken;
		take->taken = pending;
		if (pending->skt)
			break;
	}
	builtinCriticalSectionEnd();
	if (!pending)
		return;
	struct tcp_pcb *pcb = pending->skt;
	tcp_accepted(pcb);
	tcp_arg(pcb, take->tcp);
	tcp_err(pcb, tcpError);
	tcp_recv(pcb, tcpReceive);
	take->tcp->skt = pcb;
	/* What the client sent before the accept (its request, right after its handshake) was refused by
	   pendingReceive (ERR_MEM): lwIP offers it again only at its next fast timer (up to 250 ms) or
	   with the next segment. Offered now, to the socket's own receive (a FIN after it goes with it). */
	if (pcb->refused_data)
		tcp_process_refused_data(pcb);
	/* A FIN alone (a health probe that closes before a byte) is told now as lwIP would have told it:
	   the socket's error trigger, which the adopting socket takes over (tcp.c, `from`). */
	else if (((GuardedPendingRecord *)pending)->finished)
		tcpReceive(take->tcp, pcb, NULL, ERR_OK);
}

void xs_listener_read(xsMachine *the)
{
	struct PendingTake take;

	take.listener = xsmcGetHostDataValidate(xsThis, (void *)&xsListenerHooks);
	take.tcp = xsmcGetHostDataValidate(xsArg(0), (void *)&xsTCPHooks);
	take.taken = NULL;
	if (take.listener->pending)
		lwipRun(pendingTakeIn, &take);
	while (take.taken) {
		ListenerPending next = take.taken->next;
		c_free(take.taken);
		take.taken = next;
	}
	if (!take.tcp->skt) {
		doClose(the, &xsArg(0));
		return;
	}
	take.tcp->ready = true;
	xsResult = xsArg(0);
}

void xs_tcp_get_remoteAddress(xsMachine *the)
{
	TCP tcp = xsmcGetHostDataValidate(xsThis, (void *)&xsTCPHooks);
	if (tcp->skt)
		sdk_xs_tcp_get_remoteAddress(the);
}

void xs_tcp_get_remotePort(xsMachine *the)
{
	TCP tcp = xsmcGetHostDataValidate(xsThis, (void *)&xsTCPHooks);
	if (tcp->skt)
		sdk_xs_tcp_get_remotePort(the);
}

