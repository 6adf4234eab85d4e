// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TestENSRegistry} from "./TestENSRegistry.sol";

/// @title A public resolver's records the login service reads (addr, name, text), set by the node's owner.
contract TestENSResolver {
    TestENSRegistry public immutable ens;
    mapping(bytes32 => address) public addr;
    mapping(bytes32 => string) public name;
    mapping(bytes32 => mapping(string => string)) public text;

    constructor(TestENSRegistry ens_) {
        ens = ens_;
    }

    modifier authorised(bytes32 node) {
        require(ens.owner(node) == msg.sender, "not authorised");
        _;
    }

    function setAddr(bytes32 node, address addr_) external authorised(node) {
        addr[node] = addr_;
    }

    function setName(bytes32 node, string calldata name_) external authorised(node) {
        name[node] = name_;
    }

    function setText(bytes32 node, string calldata key, string calldata value) external authorised(node) {
        text[node][key] = value;
    }
}
