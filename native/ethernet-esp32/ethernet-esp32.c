/*
 * The ESP32's wired link for ethernet-esp32.js: ESP-IDF's Ethernet driver (esp_eth) with the chip's
 * own EMAC and an RMII PHY (the LAN8720 of WT32-ETH01 and Olimex ESP32-POE boards, driven by ESP-IDF's
 * IEEE 802.3 generic PHY driver: esp_eth_phy_generic.c) or, on the emulated ESP32, the OpenCores MAC
 * QEMU gives the chip (CONFIG_ETH_USE_OPENETH), attached to an esp_netif with DHCP ("ETH_DEF", the key
 * the SDK's Net module looks for when no Wi-Fi runs: modules/network/net/esp/modNet.c:84-89).
 *
 * The driver is installed by the constructor, started by the first connect() and never stopped: a cable pulled and put back is
 * ETHERNET_EVENT_DISCONNECTED and _CONNECTED, and DHCP starts again by itself (esp_netif's glue).
 * Its events arrive in ESP-IDF's event task; each is posted to the XS task as a message
 * (modMessagePostToMachine) and only there changes the state the object reads and calls onChanged.
 *
 * A wired image has no Wi-Fi libraries: the SDK's Net module still asks the Wi-Fi driver first, so
 * weak stand-ins answer ESP_ERR_WIFI_NOT_INIT, which it takes as "ask Ethernet" (modNet.c:84-87).
 */

#include "xsmc.h"
#include "xsHost.h"
#include "mc.xs.h"

#include "esp_eth.h"
#include "esp_eth_mac_esp.h"
#if CONFIG_ETH_USE_OPENETH
#include "esp_eth_mac_openeth.h"
#endif
#include "esp_event.h"
#include "esp_netif.h"
#include "esp_mac.h"
#include "esp_wifi.h"
#include "driver/gpio.h"
#include "freertos/FreeRTOS.h"
#include "freertos/task.h"

enum { LINK_DOWN = 200, LINK_UP = 300, ADDRESSED = 500 };

typedef struct {
	xsMachine *the;
	xsSlot object;
	xsSlot onChanged;
	int connection;
	uint32_t address; /* network order, 0 without one */
} Link;

/* One wired link per chip; its driver outlives every object made for it. */
static Link *gLink;
static esp_netif_t *gNetif;
static esp_eth_handle_t gEth;
static int gConnection = LINK_DOWN;
static uint32_t gAddress;
/* The DHCP host name the application gave: set on the netif when lwIP has one for it (after
   ETHERNET_EVENT_START; esp_netif answers ESP_ERR_ESP_NETIF_IF_NOT_READY before), so DHCP's first
   message carries it. Written in the XS task, read in the event task: set before the driver starts,
   or replaced whole while a DHCP lease is held (the next renewal carries it). */
static char gHostname[64];

static void applyHostname(void)
{
	if (gNetif && gHostname[0])
		esp_netif_set_hostname(gNetif, gHostname);
}

typedef struct {
	int32_t connection;
	uint32_t address;
} LinkMessage;

static void deliver(void *the, void *refcon, uint8_t *message, uint16_t length)
{
	LinkMessage *m = (LinkMessage *)message;
	Link *link = gLink;

	gConnection = m->connection;
	gAddress = m->address;
	if (!link || (link->the != the) || !xsmcTest(link->onChanged))
		return;
	link->connection = m->connection;
	link->address = m->address;
	xsBeginHost(link->the);
		xsmcVars(1);
		xsmcSetString(xsVar(0), "connection");
		xsCallFunction1(link->onChanged, link->object, xsVar(0));
	xsEndHost(link->the);
}

/* Runs in ESP-IDF's event task: tells the XS task, which owns every other field. */
static void post(xsMachine *the, int32_t connection, uint32_t address)
{
	LinkMessage m = { connection, address };
	modMessagePostToMachine(the, (uint8_t *)&m, sizeof(m), deliver, NULL);
}

static void onEthernet(void *arg, esp_event_base_t base, int32_t id, void *data)
{
	if (ETHERNET_EVENT_START == id)
		applyHostname();	/* the netif exists now, and DHCP starts only when the link is up */
	else if (ETHERNET_EVENT_CONNECTED == id) {
		applyHostname();	/* a name given after the start: in DHCP's request, if not its discover */
		post((xsMachine *)arg, LINK_UP, 0);
	}
	else if ((ETHERNET_EVENT_DISCONNECTED == id) || (ETHERNET_EVENT_STOP == id))
		post((xsMachine *)arg, LINK_DOWN, 0);
}

static void onAddress(void *arg, esp_event_base_t base, int32_t id, void *data)
{
	if (IP_EVENT_ETH_GOT_IP == id)
		post((xsMachine *)arg, ADDRESSED, ((ip_event_got_ip_t *)data)->ip_info.ip.addr);
	else if (IP_EVENT_ETH_LOST_IP == id)
		post((xsMachine *)arg, LINK_UP, 0);
}

static int optionInteger(xsMachine *the, xsIdentifier id, int otherwise)
{
	if (!xsmcHas(xsArg(0), id))
		return otherwise;
	xsmcGet(xsVar(0), xsArg(0), id);
	return xsmcToInteger(xsVar(0));
}

static esp_eth_mac_t *internalMac(xsMachine *the, eth_mac_config_t *macConfig)
{
	eth_esp32_emac_config_t config = ETH_ESP32_EMAC_DEFAULT_CONFIG();
	const char *clock = "in0";

	config.smi_gpio.mdc_num = optionInteger(the, xsID_mdc, 23);
	config.smi_gpio.mdio_num = optionInteger(the, xsID_mdio, 18);
	if (xsmcHas(xsArg(0), xsID_clock)) {
		xsmcGet(xsVar(0), xsArg(0), xsID_clock);
		clock = xsmcToString(xsVar(0));
	}
	if (!c_strcmp(clock, "in0")) {
		config.clock_config.rmii.clock_mode = EMAC_CLK_EXT_IN;
		config.clock_config.rmii.clock_gpio = 0;
	}
	else if (!c_strcmp(clock, "out16") || !c_strcmp(clock, "out17")) {
		config.clock_config.rmii.clock_mode = EMAC_CLK_OUT;
		config.clock_config.rmii.clock_gpio = ('6' == clock[4]) ? 16 : 17;
	}
	else
		xsRangeError("ethernet: clock is in0, out16 or out17");
	return esp_eth_mac_new_esp32(&config, macConfig);
}

static void start(xsMachine *the)
{
	eth_mac_config_t macConfig = ETH_MAC_DEFAULT_CONFIG();
	eth_phy_config_t phyConfig = ETH_PHY_DEFAULT_CONFIG();
	esp_eth_mac_t *mac = NULL;
	esp_eth_phy_t *phy = NULL;
	const char *kind;
	int power = optionInteger(the, xsID_phyPower, -1);

	xsmcGet(xsVar(0), xsArg(0), xsID_mac);
	kind = xsmcToString(xsVar(0));
	if (!c_strcmp(kind, "internal"))
		mac = internalMac(the, &macConfig);
#if CONFIG_ETH_USE_OPENETH
	else if (!c_strcmp(kind, "openeth"))
		mac = esp_eth_mac_new_openeth(&macConfig);
#endif
	else
		xsRangeError("ethernet: no MAC \"%s\" in this build", kind);
	if (!mac)
		xsUnknownError("ethernet: the MAC did not start");

	if (power >= 0) {
		/* The PHY's power or its 50 MHz oscillator: on before the PHY is reset and asked. */
		gpio_reset_pin(power);
		gpio_set_direction(power, GPIO_MODE_OUTPUT);
		gpio_set_level(power, 1);
		vTaskDelay(pdMS_TO_TICKS(10));
	}
	phyConfig.phy_addr = optionInteger(the, xsID_phyAddress, ESP_ETH_PHY_ADDR_AUTO);
	phyConfig.reset_gpio_num = optionInteger(the, xsID_phyReset, -1);
	phy = esp_eth_phy_new_generic(&phyConfig);
	if (!phy) {
		mac->del(mac);
		xsUnknownError("ethernet: the PHY did not start");
	}

	esp_eth_config_t config = ETH_DEFAULT_CONFIG(mac, phy);
	if (ESP_OK != esp_eth_driver_install(&config, &gEth)) {
		phy->del(phy);
		mac->del(mac);
		gEth = NULL;
		xsUnknownError("ethernet: no PHY answers at that address");
	}

	esp_netif_init();
	esp_event_loop_create_default(); /* ESP_ERR_INVALID_STATE where it runs already */
	esp_netif_config_t netifConfig = ESP_NETIF_DEFAULT_ETH();
	gNetif = esp_netif_new(&netifConfig);
	esp_netif_attach(gNetif, esp_eth_new_netif_glue(gEth));
	esp_event_handler_register(ETH_EVENT, ESP_EVENT_ANY_ID, onEthernet, the);
	esp_event_handler_register(IP_EVENT, IP_EVENT_ETH_GOT_IP, onAddress, the);
	esp_event_handler_register(IP_EVENT, IP_EVENT_ETH_LOST_IP, onAddress, the);
}

/* The driver runs from the first connect() on (the MAC is readable before: the serial and the DHCP
   host name come from it, and are set first). */
void xs_ethernet_connect(xsMachine *the)
{
	static uint8_t started;
	if (started || !gEth)
		return;
	if (ESP_OK != esp_eth_start(gEth))
		xsUnknownError("ethernet: the driver did not start");
	started = 1;
}

void xs_ethernet_constructor(xsMachine *the)
{
	Link *link;

	if (gLink)
		xsUnknownError("ethernet: one object at a time");
	xsmcVars(1);
	if (!gEth)
		start(the);
	link = c_calloc(1, sizeof(Link));
	if (!link)
		xsUnknownError("no memory");
	link->the = the;
	link->object = xsThis;
	link->connection = gConnection;
	link->address = gAddress;
	xsmcGet(link->onChanged, xsArg(0), xsID_onChanged);
	xsRemember(link->object);
	xsRemember(link->onChanged);
	xsmcSetHostData(xsThis, link);
	gLink = link;
}

void xs_ethernet_destructor(void *data)
{
	if (data) {
		if (gLink == data)
			gLink = NULL;
		c_free(data);
	}
}

void xs_ethernet_close(xsMachine *the)
{
	Link *link = xsmcGetHostData(xsThis);
	if (!link)
		return;
	xsForget(link->object);
	xsForget(link->onChanged);
	xs_ethernet_destructor(link);
	xsmcSetHostData(xsThis, NULL);
}

void xs_ethernet_get_connection(xsMachine *the)
{
	Link *link = xsmcGetHostData(xsThis);
	xsmcSetInteger(xsResult, link ? link->connection : LINK_DOWN);
}

void xs_ethernet_get_address(xsMachine *the)
{
	Link *link = xsmcGetHostData(xsThis);
	char text[16];
	if (!link || !link->address)
		return;
	esp_ip4_addr_t ip = { .addr = link->address };
	snprintf(text, sizeof(text), IPSTR, IP2STR(&ip));
	xsmcSetString(xsResult, text);
}

/* The DHCP host name (option 12), from the next DHCP message on (see gHostname). */
void xs_ethernet_set_hostname(xsMachine *the)
{
	const char *name = xsmcToString(xsArg(0));
	if (c_strlen(name) >= sizeof(gHostname))
		xsRangeError("ethernet: host name too long");
	c_strcpy(gHostname, name);
	applyHostname();	/* ESP_ERR_ESP_NETIF_IF_NOT_READY before the driver's start: set at ETHERNET_EVENT_START */
}

void xs_ethernet_get_mac(xsMachine *the)
{
	uint8_t mac[6];
	char text[18];
	if (!gEth || (ESP_OK != esp_eth_ioctl(gEth, ETH_CMD_G_MAC_ADDR, mac)))
		return;
	snprintf(text, sizeof(text), "%02x:%02x:%02x:%02x:%02x:%02x", mac[0], mac[1], mac[2], mac[3], mac[4], mac[5]);
	xsmcSetString(xsResult, text);
}

/* The SDK's Net module, without Wi-Fi in the image (see above). */
__attribute__((weak)) esp_err_t esp_wifi_get_mode(wifi_mode_t *mode) { return ESP_ERR_WIFI_NOT_INIT; }
__attribute__((weak)) esp_err_t esp_wifi_sta_get_ap_info(wifi_ap_record_t *info) { return ESP_ERR_WIFI_NOT_INIT; }
__attribute__((weak)) esp_err_t esp_wifi_get_channel(uint8_t *primary, wifi_second_chan_t *second) { return ESP_ERR_WIFI_NOT_INIT; }
