// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestENSRegistry} from "./TestENSRegistry.sol";
import {TestENSResolver} from "./TestENSResolver.sol";

interface IOwned {
    function owner() external view returns (address);
}

/// @title The reverse registrar (owner of addr.reverse): an address, or the owner of a contract wallet, names it.
contract TestReverseRegistrar {
    bytes32 public constant ADDR_REVERSE_NODE = 0x91d1777781884d03a6757a803996e38de2a42967fb37eeaca72729271025a9e2;
    TestENSRegistry public immutable ens;
    TestENSResolver public immutable defaultResolver;

    constructor(TestENSRegistry ens_, TestENSResolver resolver_) {
        ens = ens_;
        defaultResolver = resolver_;
    }

    /// @notice Sets the primary name of `addr` (the caller, or a contract whose owner() is the caller).
    function setNameForAddr(address addr, string calldata name_) external returns (bytes32 node) {
        require(addr == msg.sender || (addr.code.length > 0 && IOwned(addr).owner() == msg.sender), "not authorised");
        bytes32 label = sha3HexAddress(addr);
        node = ens.setSubnodeOwner(ADDR_REVERSE_NODE, label, address(this));
        ens.setResolver(node, address(defaultResolver));
        defaultResolver.setName(node, name_);
    }

    /// @dev keccak256 of the lower-case hex of `addr` without 0x, the label of its reverse node.
    function sha3HexAddress(address addr) private pure returns (bytes32) {
        bytes memory digits = "0123456789abcdef";
        bytes memory hex_ = new bytes(40);
        uint160 value = uint160(addr);
        for (uint256 i = 40; i > 0; i--) {
            hex_[i - 1] = digits[value & 0xf];
            value >>= 4;
        }
        return keccak256(hex_);
    }
}
