// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title The part of ENS's registry the login service reads, for tests: deployed, then its code is set at ENS's
/// registry address. That copy starts with empty storage, so an unowned root may be taken by anyone (tests only).
contract TestENSRegistry {
    struct Record {
        address owner;
        address resolver;
    }

    mapping(bytes32 => Record) private records;

    modifier authorised(bytes32 node) {
        address owner_ = records[node].owner;
        require(owner_ == msg.sender || (node == bytes32(0) && owner_ == address(0)), "not authorised");
        _;
    }

    function owner(bytes32 node) external view returns (address) {
        return records[node].owner;
    }

    function resolver(bytes32 node) external view returns (address) {
        return records[node].resolver;
    }

    function setOwner(bytes32 node, address owner_) external authorised(node) {
        records[node].owner = owner_;
    }

    function setResolver(bytes32 node, address resolver_) external authorised(node) {
        records[node].resolver = resolver_;
    }

    function setSubnodeOwner(bytes32 node, bytes32 label, address owner_) external authorised(node) returns (bytes32) {
        bytes32 subnode = keccak256(abi.encodePacked(node, label));
        records[subnode].owner = owner_;
        return subnode;
    }
}
